"""Value-only Go templates (Hugo shortcode templates that print page or site values)."""

from __future__ import annotations

import time

from murar.ingest.sites._gotemplate import Value, render_value_template

_KNOWN: dict[str, Value] = {".Page.RelPermalink": "/docs/2.1/pumps/", "site.Params.tag": "v2", ".Page.Params.n": 3}


def _fields(field: str) -> Value | None:
    return _KNOWN.get(field)


def test_values_pipelines_trim_markers_and_branches() -> None:
    assert render_value_template('{{- index (split .Page.RelPermalink "/") 2 -}}\n', _fields) == "2.1"
    assert render_value_template("v={{ site.Params.tag | upper }} n={{ add .Page.Params.n 1 }}", _fields) \
        == "v=V2 n=4"
    assert render_value_template('{{ if gt .Page.Params.n 5 }}big{{ else if eq site.Params.tag "v2" }}two'
                                 "{{ else }}other{{ end }}", _fields) == "two"
    assert render_value_template("{{ $x := printf \"%s-%d\" site.Params.tag 7 }}[{{ $x }}]", _fields) \
        == "[v2-7]"


def test_page_param_and_translations_come_from_the_caller() -> None:
    """Hugo's .Page.Param "key" and T/i18n "key" are computed by the caller; without one (or
    when it cannot: a T with a data argument) the template is no value template."""
    words = {"must": "Your server must be at least ", "check": "To check, run "}

    def hugo(what: str, args: list[Value]) -> Value | None:
        if what == "Param":
            return {"min-version": "v1.29", "version": "v1.32"}.get(str(args[0]), "")
        return words.get(str(args[0]), "") if len(args) == 1 else None

    tpl = ('{{ $min := .Page.Param "min-version" }}{{ if eq $min (.Page.Param "version") }}{{ T "must" }}'
           '{{ $min }} exactly.{{ else if $min }}{{ T "must" }}{{ $min }}.{{ end }} {{ i18n "check" | safeHTML }}'
           "<code>kubectl version</code>.")
    assert render_value_template(tpl, _fields, hugo=hugo) == \
        "Your server must be at least v1.29. To check, run <code>kubectl version</code>."
    assert render_value_template(tpl, _fields) is None
    assert render_value_template('{{ T "must" (dict "n" 1) }}', _fields, hugo=hugo) is None


def test_anything_else_is_not_a_value_template() -> None:
    for text in ("plain text", "{{ .Page.Unknown }}", "{{ range .Page.Params.n }}x{{ end }}",
                 "{{ if .Page.Params.n }}open", "{{ partial \"x\" . }}", '{{ replaceRE "a" "b" "c" }}',
                 "{{ with site.Params.tag }}{{ . }}{{ end }}"):
        assert render_value_template(text, _fields) is None, text


def test_an_unknown_value_in_a_link_address_or_attribute_leaves_it_empty() -> None:
    """A value this module cannot compute (a partial) where the template writes a Markdown link's
    address or an HTML attribute's value is not text the reader sees: the template renders with
    that address empty (the YugabyteDB docs' support shortcodes: [Yugabyte Support]({{ partialCached
    "support-anywhere" . }}) read 'contact .'). Anywhere else such a value still fails the template."""
    assert render_value_template('[Pump Support]({{ partialCached "support" . }})', _fields) == "[Pump Support]()"
    assert render_value_template('<a href="{{ partial "x" . }}" class=\'{{ partial "y" . }}\'>Go</a>',
                                 _fields) == "<a href=\"\" class=''>Go</a>"
    for text in ('See {{ partial "x" . }}.', '[{{ partial "x" . }}](/a/)', '<a href="{{ partial "x" . }}/b">Go</a>',
                 '[S]({{ if partial "x" . }}a{{ end }})'):
        assert render_value_template(text, _fields) is None, text


def test_hostile_templates_are_refused_quickly() -> None:
    start = time.monotonic()
    for text in ("{{" * 5000, "{{ x" + " " * 100_000, "{{ " + "(" * 500 + ".Page.Params.n" + ")" * 500 + " }}",
                 '{{ replace "' + "a" * 1500 + '" "a" "' + "b" * 1500 + '" }}'):
        assert render_value_template(text, _fields) is None
    assert time.monotonic() - start < 2.0


def test_values_over_the_bound_are_refused_before_they_are_made() -> None:
    """``replace $b "" $b`` of a 9,950-character ``$b`` made 99,000,000 characters (0.1 s and
    100 MB) before the value bound refused it, for each call of the shortcode: 1,000 calls on a
    12 KB page took 111 s. The size is now told first (peak memory, not time, is asserted)."""
    import tracemalloc

    built = '{{ $a := "' + "a" * 1990 + '" }}{{ $b := printf "%s%s%s%s%s" $a $a $a $a $a }}'
    tracemalloc.start()
    try:
        for tail in ('{{ replace $b "" $b }}', '{{ delimit (split $b "") $b }}',
                     '{{ strings.Join (split $b "") $b }}'):
            assert render_value_template(built + tail, _fields) is None, tail
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000
    assert render_value_template('{{ replace "a-b-c" "-" "+" 1 }} {{ delimit (split "a,b" ",") "; " }}',
                                 _fields) == "a+b-c a; b"
