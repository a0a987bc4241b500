"""Emoji written as a shortcode (``:white_check_mark:``) that state a value.

Generators draw shortcodes as pictures (pymdownx.emoji with Twemoji, sphinxemoji's
``|:code:|``): a decorative one adds nothing to the text, but a check mark, a cross, a
warning sign or a status dot in a support matrix is the cell's value, so murar writes
its character (the alt text Twemoji gives the picture, ``unicode_alt``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["VALUE_EMOJI"]

#: shortcode name -> character, for the emoji that state a value (a support matrix of ✅ and ❌ cells reads
#: empty without them)
VALUE_EMOJI: Mapping[str, str] = MappingProxyType({"white_check_mark": "\u2705", "heavy_check_mark": "\u2714\ufe0f",
                "ballot_box_with_check": "\u2611\ufe0f", "x": "\u274c", "negative_squared_cross_mark": "\u274e",
                "heavy_multiplication_x": "\u2716\ufe0f", "warning": "\u26a0\ufe0f", "no_entry": "\u26d4",
                "no_entry_sign": "\U0001f6ab", "question": "\u2753", "grey_question": "\u2754",
                "exclamation": "\u2757", "heavy_exclamation_mark": "\u2757", "grey_exclamation": "\u2755",
                "heavy_plus_sign": "\u2795", "heavy_minus_sign": "\u2796", "construction": "\U0001f6a7",
                "red_circle": "\U0001f534", "orange_circle": "\U0001f7e0", "yellow_circle": "\U0001f7e1",
                "green_circle": "\U0001f7e2", "large_blue_circle": "\U0001f535", "blue_circle": "\U0001f535",
                "white_circle": "\u26aa", "black_circle": "\u26ab", "star": "\u2b50"})
