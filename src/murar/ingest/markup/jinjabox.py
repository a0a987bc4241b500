"""A jinja2 sandbox bounded in work and in the size of the values a template makes.

jinja2's :class:`~jinja2.sandbox.SandboxedEnvironment` keeps a template away from
Python's internals, but not from unbounded work: two nested ``range(100000)`` loops,
a macro calling itself twice per level, ``"x" * 500000000``, ``"a" | center(500000000)``,
``9 ** 99999999`` or a ``namespace`` value doubled in a loop ran for minutes or until
memory ran out (the jinja2 documentation, "Sandbox": "the sandbox alone is no solution
for perfect security ... a template can still cause CPU or memory exhaustion").

:class:`BoundedSandbox` is that sandbox with a budget for one render:

- every loop iteration is a step, every call (a macro, a method, a global) ten, at
  most :data:`MAX_STEPS` in all; loops are counted by wrapping each ``{% for %}``'s sequence;
- an operator, filter or call that would make a value over :data:`MAX_VALUE_CHARS`
  characters (or items) is refused before it runs where its size can be told in
  advance (``*``, ``**``, ``%`` formatting, ``center``/``indent``/``replace``/``format``
  and the like with a width or count), and any value a filter or call returns, a
  ``namespace`` attribute holds, or the template prints is measured (lists and dicts
  as often as they are referenced: ``[a, a, a]`` ten levels deep is 3**10 items);
- ``lipsum`` (placeholder text, never documentation) is not defined.

Past a bound the render stops with :class:`TemplateBudgetError` (a
:class:`jinja2.TemplateError`).
"""

from __future__ import annotations

import re
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    ValuesView,
)
from functools import wraps
from typing import Any

from jinja2 import TemplateError, nodes
from jinja2.runtime import Context, LoopContext
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import Namespace

__all__ = ["MAX_STEPS", "MAX_VALUE_CHARS", "BoundedSandbox", "TemplateBudgetError"]

#: loop iterations and calls one render may make (a template looping over a 100,000-row
#: data file 10 times over is well within it)
MAX_STEPS = 1_000_000
#: steps a call counts for (a macro call takes some 100 times a loop iteration's time)
_CALL_STEPS = 10
#: items of a value measured for one step (a check walks a value's containers once)
_ITEMS_PER_STEP = 16
#: filters that write their input as text (the input is measured before they run)
_PRINTING_FILTERS = frozenset({
    "tojson", "string", "pprint", "join", "xmlattr", "urlencode", "format", "e", "escape", "forceescape",
    "safe", "trim", "upper", "lower", "capitalize", "title", "center", "indent", "wordwrap", "truncate",
    "replace", "striptags", "wordcount", "urlize", "filesizeformat"})
#: characters (strings) or items (lists, dicts, counted through nesting) of any value a template makes
MAX_VALUE_CHARS = 10_000_000
#: bits of an integer an arithmetic operator may take or make
_MAX_INT_BITS = 100_000
#: the name each loop's sequence is wrapped in (a step per item)
_STEPPER = "murar_bounded_steps"
_DIGITS = re.compile(r"\d+")


class TemplateBudgetError(TemplateError):
    """A template went over its work or value-size budget (the message says which)."""


def _size(value: Any, limit: int = MAX_VALUE_CHARS) -> tuple[int, int]:
    """``(size, walked)``: the characters and items of ``value`` as printing it would
    write them (a list, tuple, set or dict counted each time it is referenced: ``[a, a,
    a]`` ten levels deep is 3**10 items; a cycle, printed ``[...]``, once), counted up
    to just past ``limit``; ``walked``: the items visited to tell (each container is
    measured once, so at most its items in memory)."""
    sizes: dict[int, int] = {}
    walked = 0

    def size(item: Any) -> int:
        nonlocal walked
        if isinstance(item, str | bytes):
            return len(item)
        if isinstance(item, int) and not isinstance(item, bool):
            return limit + 1 if item.bit_length() > _MAX_INT_BITS else 1
        kids: Iterable[Any]
        if isinstance(item, dict):
            kids = (*item.keys(), *item.values())
        elif isinstance(item, list | tuple | set | frozenset | KeysView | ValuesView | ItemsView):
            kids = item
        else:
            return 1
        if id(item) in sizes:
            return sizes[id(item)]
        sizes[id(item)] = 1  # (while it is measured: a cycle)
        total = 1
        for kid in kids:
            walked += 1
            total += 1 + size(kid)
            if total > limit:
                break
        sizes[id(item)] = total
        return total

    try:
        return size(value), walked
    except RecursionError:  # nested deeper than Python prints
        return limit + 1, walked


def _ints(args: Iterable[Any]) -> int:
    """The largest integer among ``args`` (0 when none)."""
    return max((abs(a) for a in args if isinstance(a, int) and not isinstance(a, bool)), default=0)


def _format_bound(fmt: str, args: Iterable[Any]) -> int:
    """An upper bound of the length of ``fmt`` formatted with ``args`` (``%`` or
    ``str.format``): the text, every number in it taken as a width, the arguments."""
    values = list(args)
    return len(fmt) + sum(int(d) for d in _DIGITS.findall(fmt)[:10_000]) + _ints(values) \
        + sum(_size(v)[0] for v in values)


def _amplification(name: str, subject: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """An upper bound of the size of what the filter or ``str`` method ``name`` makes of
    ``subject`` with ``args``/``kwargs``, for the ones whose output can outgrow their input
    by a width or count; ``0`` for the others (their result is measured afterwards)."""
    given = [*args, *kwargs.values()]
    text = subject if isinstance(subject, str) else ""
    if name in ("center", "ljust", "rjust", "zfill"):
        return len(text) + _ints(given)
    if name in ("indent", "expandtabs"):
        return len(text) * (1 + _ints(given)) + _ints(given)
    if name == "wordwrap":
        return len(text) * (2 + max((len(a) for a in given if isinstance(a, str)), default=1))
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        old, new = args[0], args[1]
        hits = text.count(old) if old else len(text) + 1
        return len(text) + hits * len(new)
    if name in ("format", "format_map") and isinstance(subject, str):
        return _format_bound(subject, given)
    if name in ("batch", "slice"):
        return _size(subject)[0] + _ints(args[:1]) * (1 + _ints(args[:1]))
    return 0


class BoundedSandbox(SandboxedEnvironment):
    """jinja2's sandbox with a budget of steps and value sizes (see the module doc). One
    instance renders one template once: its steps are spent as it renders."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.steps_left = MAX_STEPS
        self.globals.pop("lipsum", None)
        self.globals[_STEPPER] = self._stepped
        self.globals["namespace"] = _namespace_class(self)
        self.finalize = lambda value: self.measured(value, "a printed expression")
        self.filters = {name: self._bounded_filter(name, func) for name, func in self.filters.items()}

    def step(self, count: int = 1) -> None:
        """Spend ``count`` steps; :class:`TemplateBudgetError` past :data:`MAX_STEPS`."""
        self.steps_left -= count
        if self.steps_left < 0:
            raise TemplateBudgetError(f"over {MAX_STEPS} loop iterations and calls")

    def measured(self, value: Any, what: str) -> Any:
        """``value``, measured (:func:`_size`; the items visited are spent as steps, one
        per :data:`_ITEMS_PER_STEP`); :class:`TemplateBudgetError` when it is over
        :data:`MAX_VALUE_CHARS` characters or items."""
        if isinstance(value, str):
            size = len(value)
        else:
            size, walked = _size(value)
            self.step(walked // _ITEMS_PER_STEP)
        if size > MAX_VALUE_CHARS:
            raise TemplateBudgetError(f"{what} makes a value over {MAX_VALUE_CHARS} characters or items")
        return value

    def _stepped(self, items: Any) -> Iterator[Any]:
        for item in items:
            self.step()
            yield item

    def _bounded_filter(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(func)
        def bounded(*args: Any, **kwargs: Any) -> Any:
            # (a pass_context/pass_environment filter gets the context or environment first)
            values = [a for a in args if not isinstance(a, SandboxedEnvironment | Context | nodes.EvalContext)]
            if values and _amplification(name, values[0], tuple(values[1:]), kwargs) > MAX_VALUE_CHARS:
                raise TemplateBudgetError(f"filter {name!r} would make a value over {MAX_VALUE_CHARS} characters")
            if values and name in _PRINTING_FILTERS:  # it prints its input: measured first
                self.measured(values[0], f"the input of filter {name!r}")
            return self.measured(func(*args, **kwargs), f"filter {name!r}")
        return bounded

    def call(self, context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        """A call from the template: a step; a ``str`` method whose output could be over
        :data:`MAX_VALUE_CHARS` is refused; the result is measured."""
        self.step(_CALL_STEPS)
        if obj is self._stepped:
            return obj(*args, **kwargs)
        if isinstance(obj, LoopContext) and args:  # a recursive loop's loop(children): stepped too
            args = (self._stepped(args[0]), *args[1:])
        name = getattr(obj, "__name__", "")
        subject = getattr(obj, "self__", None)
        if isinstance(subject, str) and _amplification(name, subject, args, kwargs) > MAX_VALUE_CHARS:
            raise TemplateBudgetError(f"{name}() would make a value over {MAX_VALUE_CHARS} characters")
        if _ints([*args, *kwargs.values()]) > MAX_VALUE_CHARS and isinstance(subject, str | list):
            raise TemplateBudgetError(f"{name}() with a number over {MAX_VALUE_CHARS}")
        return self.measured(SandboxedEnvironment.call(self, context, obj, *args, **kwargs),
                               f"{name or 'a'}() call")

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """The sandbox's ``str.format``/``format_map``, refused when its output could be
        over :data:`MAX_VALUE_CHARS` (``"{:>500000000}".format(x)``)."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = str(value.__self__)

        def bounded(*args: Any, **kwargs: Any) -> str:
            given = [*args, *kwargs.values()]
            given += [v for a in args if isinstance(a, dict) for v in a.values()]  # format_map's values
            if _format_bound(fmt, given) > MAX_VALUE_CHARS:
                raise TemplateBudgetError(f"format() would make a value over {MAX_VALUE_CHARS} characters")
            return wrapped(*args, **kwargs)
        return bounded

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**``, ``%`` ... refused when they would make a value over the bounds."""
        if isinstance(left, int) and isinstance(right, int):
            if max(left.bit_length(), right.bit_length()) > _MAX_INT_BITS:
                raise TemplateBudgetError(f"a number over {_MAX_INT_BITS} bits")
            if operator == "**" and abs(left) > 1 and right > 0 and right * left.bit_length() > _MAX_INT_BITS:
                raise TemplateBudgetError(f"{left} ** {right}: a number over {_MAX_INT_BITS} bits")
        if operator == "*":
            seq, count = (left, right) if isinstance(right, int) else (right, left)
            if isinstance(count, int) and not isinstance(seq, int | float) and \
                    _size(seq)[0] * max(count, 0) > MAX_VALUE_CHARS:
                raise TemplateBudgetError(f"repeating a value {count} times: over {MAX_VALUE_CHARS} characters")
        if operator == "%" and isinstance(left, str):
            given = right if isinstance(right, tuple) else (right,)
            if _format_bound(left, given) > MAX_VALUE_CHARS:
                raise TemplateBudgetError(f"% formatting would make a value over {MAX_VALUE_CHARS} characters")
        return self.measured(super().call_binop(context, operator, left, right), f"the {operator} operator")

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Every template this environment parses (the one rendered and those it
        imports or includes through a loader) with each ``{% for %}`` sequence
        stepped through (one step an item)."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.Name(_STEPPER, "load", lineno=loop.lineno), [loop.iter], [], None, None,
                                   lineno=loop.lineno)
        return tree

    def bounded_template(self, source: str) -> Any:
        """The template of ``source`` with each ``{% for %}`` sequence stepped through
        (one step an item). Raises :class:`jinja2.TemplateSyntaxError`."""
        return self.from_string(source)


def _namespace_class(env: BoundedSandbox) -> type[Namespace]:
    """``namespace()`` of ``env``: its attributes are measured as they are set (a value
    doubled in a loop stops at :data:`MAX_VALUE_CHARS`)."""

    class BoundedNamespace(Namespace):
        def __setitem__(self, name: str, value: Any) -> None:
            super().__setitem__(name, env.measured(value, f"namespace attribute {name!r}"))

    return BoundedNamespace
