"""The Jinja2 environment: autoescaping, gettext in the request's language, display filters."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from datetime import timedelta
from typing import Any, ClassVar, Final, Protocol
from urllib.parse import urlsplit

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, nodes, pass_context, select_autoescape
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup
from starlette.datastructures import URL, URLPath
from starlette.requests import Request

from app import i18n, words
from app.caches import Kept, text_size
from app.config import ROOT
from app.service import IDLE_CAP, races
from app.web import names, setting_fields

HTMX_VERSION: Final = "2.0.11"
SSE_VERSION: Final = "2.2.4"
"""htmx's server-sent events extension (static/vendor/htmx-ext-sse-<version>/)."""


CLOCK_FORMATS: Final = ("m:ss", "h:mm:ss")
"""How a play time is written: the first format under an hour, the second from an hour on.
A letter is a unit (hours, minutes, seconds), a doubled one padded to two digits. The page
hands them to site.js (``data-clock``), which counts the time up in the same formats."""

_UNIT: Final = re.compile(r"h+|m+|s+")


def clock(milliseconds: int) -> str:
    """``754000`` → ``'12:34'``; hours when needed (``'1:02:03'``), per :data:`CLOCK_FORMATS`."""
    seconds = milliseconds // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    units = {"h": hours, "m": minutes, "s": seconds}
    pattern = CLOCK_FORMATS[1] if hours else CLOCK_FORMATS[0]
    return _UNIT.sub(lambda unit: f"{units[unit[0][0]]:0{len(unit[0])}}", pattern)


URL_PATHS_BYTES: Final = 1024 * 1024
"""Route paths kept per site: each game's few addresses, for the few thousand games in play."""


class Paths:
    """Each route's path found once per site (one site, one set of templates): finding it
    tries every route in turn, an exception each miss, and a page asks a dozen times a
    render. Absolute links are built from ``base_url`` (:func:`app.config.site_address`),
    never from the request's ``Host`` header."""

    def __init__(self, base_url: str = "") -> None:
        self.base_url = base_url
        self.prefix = urlsplit(base_url).path.rstrip("/")
        self.found = Kept[tuple[str, tuple[tuple[str, object], ...]], URLPath](
            "route paths", URL_PATHS_BYTES, lambda key, path: text_size(key, str(path))
        )

    def route_path(self, request: Request, name: str, path_params: dict[str, object]) -> URLPath:
        key = (name, tuple(sorted(path_params.items())))
        path = self.found.get(key)
        if path is None:
            path = self.found.put(key, request.scope["router"].url_path_for(name, **path_params))
        return path

    def url_for(self, request: Request, name: str, /, **path_params: object) -> URL:
        """Starlette's ``url_for``: the absolute URL from the site's address (never from
        the request's ``Host``); without one, the path alone."""
        path = self.route_path(request, name, path_params)
        if not self.base_url:
            return URL(self.path_for(request, name, **path_params))
        return path.make_absolute_url(base_url=self.base_url)

    def path_for(self, request: Request, name: str, /, **path_params: object) -> str:
        """The path alone (``/games/…/actions``), as forms and links on the site's own pages
        use it: what ``url_for(…).path`` gives, without building and parsing a whole URL."""
        prefix = self.prefix if self.base_url else request.scope.get("root_path", "")
        return f"{prefix}{self.route_path(request, name, path_params)}"


def paths(request: Request) -> Paths:
    """The site's :class:`Paths` (kept with its templates)."""
    found: Paths = request.app.state.templates.env.globals["paths"]
    return found


CELLS_BYTES: Final = 8 * 1024 * 1024
"""Cells' markup kept per site: the cells of a few hundred games."""


class Cell(Protocol):
    """A board's cell as a game's view makes it: hashable plain facts (equal facts draw the
    same cell), its ``name`` (what hints light up), and whether it ``links`` to its game's
    page (its markup then holds the game's address)."""

    @property
    def name(self) -> str: ...

    @property
    def links(self) -> bool: ...

    def __hash__(self) -> int: ...


CellKey = tuple[str, str, Cell, bool, str, bool, int]
"""A cell's markup is kept by language, template, cell, lit, link, out-of-band and how many
of its last cards the last move played there."""
CellMarkup = Callable[..., Markup]


def make_cell_markup(env: Environment) -> CellMarkup:
    """``cell_markup(template, cells, hinted, game_url)``: the cells' HTML, each made by the
    ``cell`` macro of ``template`` once per language and cell, then reused.

    From one move to the next only the few cells around the move change, so a board's render
    is mostly lookups: drawing 52 cells through Jinja2 and wording each for a screen reader
    was over half of a move's render. The macro uses nothing but its arguments and the
    reader's language, so what it made before is what it would make again."""
    kept = Kept[CellKey, Markup]("cells", CELLS_BYTES, _part_size)

    def cell_markup(
        template: str,
        cells: Iterable[Cell],
        hinted: Container[str],
        game_url: str,
        oob: bool = False,
        moved: tuple[str, int] | None = None,
    ) -> Markup:
        """``oob``: each cell to be put in place of the one with its id (a move's answer
        that sends only the cells it changed). ``moved``: where the last move's cards lie
        (the place's id, ``p-3``, and how many of its last cards): that place says so
        (``data-moved-cards``), so the page marks them without JavaScript too."""
        macro = env.get_template(template).module.cell  # type: ignore[attr-defined]
        locale = i18n.current()
        there, count = (moved[0].partition("-")[2], moved[1]) if moved else ("", 0)
        drawn = [
            (
                cell,
                cell.name in hinted,
                game_url if cell.links else "",
                count * (cell.name == there),
            )
            for cell in cells
        ]
        # Plain tuples: a cell hashes fast in C, faster than a key that keeps its hash
        # (whose Python __hash__ costs more than the cell's own; 36 against 106 µs a board).
        keys: list[CellKey] = [
            (locale, template, cell, lit, url, oob, marked) for cell, lit, url, marked in drawn
        ]
        parts: list[Markup] = []
        for (cell, lit, url, marked), found, markup in zip(
            drawn, keys, kept.peek_many(keys), strict=True
        ):
            if markup is None:
                made = macro(cell, lit, url, oob=oob, moved=marked)
                markup = kept.put(found, made)
            parts.append(markup)
        return Markup("").join(parts)

    return cell_markup


PARTS_BYTES: Final = 8 * 1024 * 1024
"""Parts of pages kept per site (a page's head, a game's foot and controls)."""


def _part_size(key: tuple[object, ...], markup: str) -> int:
    """A kept piece of markup: its text, and its key's strings (a cell's facts count as a
    small object each)."""
    return text_size(markup, *(part if isinstance(part, str) else 64 for part in key))


class KeepKeyMissing(AssertionError):
    """A ``{% keep %}`` part drew differently under the same keys: a key is missing, and the
    kept part would show one page's HTML on another."""


class KeepExtension(Extension):
    """``{% keep "name", key, … %}…{% endkeep %}``: a part of a page that draws the same
    for the same keys in the same language (the site's header, a game's foot), drawn once
    and then reused. The keys must name everything the part shows besides words; they are
    values the server made or checked (a game's id, its kind), never what a client sent.

    ``verify`` (the tests turn it on) draws every part again at each use and raises
    :class:`KeepKeyMissing` when it differs from the kept one: any page the tests render
    in two states that one key would confuse fails."""

    tags = {"keep"}  # noqa: RUF012  (Jinja2's own attribute)
    verify: ClassVar[bool] = False

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.parts = Kept[tuple[object, ...], Markup]("page parts", PARTS_BYTES, _part_size)

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        keys = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endkeep",), drop_needle=True)
        call = self.call_method("_part", [nodes.List(keys)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _part(self, keys: list[object], caller: Callable[[], str]) -> Markup:
        key = (i18n.current(), *keys)
        part = self.parts.get(key)
        if part is None:
            return self.parts.put(key, Markup(caller()))
        if self.verify and part != caller():
            raise KeepKeyMissing(f"{{% keep {keys!r} %}} drew differently under the same keys")
        return part


def per_request(helper: Callable[..., str]) -> Callable[..., str]:
    """``helper`` as a filter Jinja2 never runs while it compiles a template.

    Jinja2 folds a filter on constants (``1000000|number``) into the compiled template, in
    whatever language the first page that used it was drawn: a filter that reads the
    request's language must not be folded. One that takes the context cannot be."""

    def filtered(context: object, value: Any, *args: Any, **kwargs: Any) -> str:  # any filter
        return helper(value, *args, **kwargs)

    filtered.__doc__ = helper.__doc__
    return pass_context(filtered)


def make_templates(base_url: str = "") -> Jinja2Templates:
    env = Environment(
        loader=FileSystemLoader(ROOT / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n", KeepExtension],
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates change with a deploy (a restart), never while serving: checking every
        # template file's mtime at each render cost 12 % of a move under load.
        auto_reload=False,
    )
    # The request's locale lives in a context variable (app.i18n), so one environment
    # serves every language.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
    )
    env.globals["current_locale"] = i18n.current
    env.globals["text_direction"] = i18n.direction
    env.globals["languages"] = [i18n.LANGUAGES[code] for code in i18n.LOCALES]
    env.globals["game_name"] = names.game_name
    env.globals["variant_name"] = names.variant_name
    env.globals["group_name"] = names.group_name
    env.globals["site_title"] = names.site_title
    env.globals["setting_fields"] = setting_fields.fields
    # Every filter that words or formats in the reader's language is drawn per request.
    for name, helper in (
        ("number", i18n.number),
        ("percent", i18n.percent),
        ("day", i18n.day),
        ("moment", i18n.moment),
        ("decimal", i18n.decimal),
        ("listing", i18n.listing),
        ("joined", words.joined),
        ("spoken", words.spoken),
    ):
        env.filters[name] = per_request(helper)
    env.globals["isolate"] = i18n.isolate
    env.filters["clock"] = clock
    # What site.js needs to count play time up between actions as the server does.
    env.globals["clock_formats"] = " ".join(CLOCK_FORMATS)
    env.globals["idle_cap_ms"] = IDLE_CAP // timedelta(milliseconds=1)
    env.globals["htmx_version"] = HTMX_VERSION
    env.globals["sse_version"] = SSE_VERSION
    env.globals["race_limits"] = races.LIMITS
    found = Paths(base_url)
    env.globals["paths"] = found
    env.globals["url_for"] = pass_context(lambda c, *a, **k: found.url_for(c["request"], *a, **k))
    env.globals["path_for"] = pass_context(lambda c, *a, **k: found.path_for(c["request"], *a, **k))
    # The site's macros (templates/_macros.html) need nothing from a page's context: made
    # once, as globals. Importing them in each template made their module again at every
    # render (Jinja2 compares the importing context's globals each time).
    macros = env.get_template("_macros.html").module
    for name in ("action_form", "new_game_form", "play_time"):
        env.globals[name] = getattr(macros, name)
    env.globals["cell_markup"] = make_cell_markup(env)
    return Jinja2Templates(env=env)
