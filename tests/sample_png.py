"""One real PNG shared by tests that need an image file to resolve, hash and keep."""

from __future__ import annotations

import base64

PNG_64PX = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAAAAACPAi4CAAAAK0lEQVR42u3MMREAAAgEoNf+nTWEmwcBqMlNRyAQCAQCgUAgEAgEAsHzYAFQLQF/OJ8+2wAAAABJRU5ErkJggg=="
)
"""A valid 64x64 grey PNG (bytes): large enough to be kept, where a 1x1 image is flagged tiny."""
