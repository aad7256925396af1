"""Loading a game's content folder into one typed object, and checking it.

A game lives in `content/<game>/`: one YAML file per concern (`game.yaml`, `cards.yaml`, ...) and a
`scenarios/` folder. Its schema, `content/schema/<game>.schema.json`, has one property per file, so
a single jsonschema pass checks the files and every error maps back to `file:line:col` through the
file's `Locator`. Cross-file checks (counts, references, backs) follow, then the game's own
(`GameDefinition.check`, found through the registry).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import marshal
import re
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterator

from cardgen.errors import ContentError, ContentErrors, display_path, printable
from cardgen.yamlio import Locator, format_json_path, load_yaml, read_regular_file

try:  # the standard library's regular expression parser, for `slow_pattern`
    import re._parser as _regex_parser
except ImportError:  # Python 3.10
    import sre_parse as _regex_parser


def _bundled_content() -> Path:
    """The games shipped with cardgen: the project's `content/` folder in a source checkout (or an
    editable install), else the copy installed inside the package (`cardgen.bundled`)."""
    source = Path(__file__).resolve().parent.parent / "content"
    if (source / "schema").is_dir():
        return source
    return Path(__file__).resolve().parent / "bundled"


PROJECT_CONTENT = _bundled_content()
LANGUAGES = ("en", "zh-Hant")
MAX_COMPONENTS = 10_000  # cards and other components of one game together


@dataclass
class GameContent:
    """Everything one game's folder says, with positions kept for error messages."""

    id: str
    root: Path
    files: dict[str, Any] = field(default_factory=dict)
    locators: dict[str, Locator] = field(default_factory=dict)
    # The languages printed in this run: cards show the others only when they are listed here.
    languages: tuple[str, ...] = LANGUAGES

    @property
    def game(self) -> dict:
        return self.files["game"]

    @property
    def printed_languages(self) -> tuple[str, ...]:
        """The languages the game declares in game.yaml (`languages:`), all of them by default."""
        return tuple(self.game.get("languages", LANGUAGES))

    @property
    def title(self) -> dict:
        return self.game["title"]

    @property
    def decks(self) -> list[dict]:
        return self.game["decks"]

    def deck(self, deck_id: str) -> dict:
        return next(d for d in self.decks if d["id"] == deck_id)

    @property
    def cards(self) -> list[dict]:
        """Card entries as written (an entry may stand for several copies)."""
        return self.files.get("cards", {}).get("cards", [])

    def physical_cards(self) -> list[dict]:
        """One dict per printed card, in content order, with `copy` (1-based) added."""
        result = []
        for card in self.cards:
            for n in range(1, card.get("copies", 1) + 1):
                result.append({**card, "copy": n})
        return result

    def card_size_mm(self, deck: dict) -> tuple[float, float]:
        size = self.game["card_sizes"][deck["size"]]
        return float(size["width_mm"]), float(size["height_mm"])

    def deck_counts(self) -> dict[str, int]:
        counts = {d["id"]: 0 for d in self.decks}
        for card in self.cards:
            counts[card["deck"]] = counts.get(card["deck"], 0) + card.get("copies", 1)
        return counts

    def facts(self) -> dict[str, Any]:
        """Numbers a rule text may quote as {name}; all computed from the data, once per content
        (some are exact odds, some come from setting a game up)."""
        if "_facts" not in self.__dict__:
            self.__dict__["_facts"] = self._work_out_facts()
        return dict(self.__dict__["_facts"])

    def _work_out_facts(self) -> dict[str, Any]:
        counts = self.deck_counts()
        facts: dict[str, Any] = dict(counts)
        facts["cards"] = sum(counts.values())
        for item in self.other_components():
            facts[item["id"]] = item.get("count", 1)
        facts["players_min"] = self.game["players"]["min"]
        facts["players_max"] = self.game["players"]["max"]
        facts.update(self.extra_facts())
        return facts

    def extra_facts(self) -> dict[str, Any]:
        from cardgen.registry import definition_for

        return kept_value(self, "facts", definition_for(self.id).facts)

    def data_digest(self) -> str | None:
        """The hash of the data as loaded (every file's parsed contents, in order), or None when
        the data holds a value that cannot be hashed this way."""
        try:
            return hashlib.sha256(marshal.dumps(self.files, 2)).hexdigest()  # version 2: no shared references
        except ValueError:
            return None

    def provenance_counts(self) -> dict[str, int]:
        counts = {"sourced": 0, "reconstructed": 0}
        # A designer's own cards need not say where they come from: they count as neither.
        for card in self.physical_cards():
            if card.get("provenance") in counts:
                counts[card["provenance"]] += 1
        for item in self.other_components():
            if item.get("provenance") in counts:
                counts[item["provenance"]] += item.get("count", 1)
        return counts

    def other_components(self) -> list[dict]:
        """Physical components that are not cards (tiles, boards, tokens), as manifest rows with
        `kind`, `id`, `count`, `provenance`. Games that have them list them in `game.yaml`."""
        return self.game.get("components", [])

    def where(self, file_stem: str, json_path) -> str:
        place = self.locators[file_stem].error(json_path, "")  # a card list may span several files
        return f"{display_path(str(place.file))}:{place.line}:{place.col}"

    def error(self, file_stem: str, json_path, message: str) -> ContentError:
        return self.locators[file_stem].error(json_path, message)

    @property
    def scenario_paths(self) -> list[Path]:
        """The game's scenario files; a link leading out of the content folder is left out (and
        reported by `load_game`)."""
        return [p for p in sorted((self.root / "scenarios").glob("*.yaml")) if inside(p, self.root)]

    def render_text(self, text: str, lang: str, facts: dict[str, Any] | None = None) -> str:
        """Fill {fact} placeholders in a rule text (`{{` and `}}` print a brace). A placeholder
        names a fact and nothing else: no format spec, no attribute, no index. `facts` (from
        `facts()`) saves working them out again for each of many texts."""
        facts = self.facts() if facts is None else facts
        return PLACEHOLDER.sub(lambda m: m.group(0)[0] if m.group(1) is None else str(facts[m.group(1)]), text)


def term(content: GameContent, key: str, lang: str) -> str:
    """A word from the `terms` of rules.yaml, so that pictures and cards use the same words as
    the rule text."""
    terms = content.files.get("rules", {}).get("terms", {})
    if key not in terms:
        raise ContentErrors([content.error("rules", ["terms"], f"missing term {key!r}, which a diagram prints")])
    return terms[key][lang]


def discover_games(content_dir: Path) -> list[str]:
    """Game folders (those holding a game.yaml), sorted."""
    content_dir = Path(content_dir)
    if not content_dir.is_dir():
        raise ContentErrors([ContentError(str(content_dir), 0, 0, "$", "content folder not found")])
    return sorted(p.parent.name for p in content_dir.glob("*/game.yaml"))


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, links followed, lies within `root` (links followed too)."""
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


LINK_OUT = "a link that leads out of the content folder is refused; copy the file in instead"


def load_game(content_dir: Path, game_id: str) -> GameContent:
    """Load and fully check one game; raise `ContentErrors` listing every problem found. Nothing
    outside the content folder is read: links that lead out of it are refused."""
    content = GameContent(game_id, Path(content_dir) / game_id)
    errors: list[ContentError] = []
    if not inside(content.root, content_dir):
        raise ContentErrors([ContentError(str(content.root), 0, 0, "$", LINK_OUT)])
    if not (content.root / "game.yaml").is_file():
        raise ContentErrors([ContentError(str(content.root / "game.yaml"), 0, 0, "$", "file not found")])
    for path in sorted((content.root / "scenarios").glob("*.yaml")):
        if not inside(path, content.root):
            errors.append(ContentError(str(path), 0, 0, "$", LINK_OUT))
    for path in sorted(content.root.glob("*.yaml")):
        read = read_inside(path, content.root, load_yaml, errors)
        if read is None:
            continue
        data, locator = read
        content.files[path.stem] = data
        content.locators[path.stem] = locator
    errors.extend(load_card_sheets(content))
    if errors:
        raise ContentErrors(errors)
    from cardgen.datagame import complete, register_data_game, uses_data_definition
    from cardgen.registry import is_registered, registered

    register_data_game(content)
    if not is_registered(game_id):
        known = ", ".join(sorted(registered())) or "none"
        raise ContentErrors([ContentError(str(content.root / "game.yaml"), 0, 0, "$",
                                          f"no game {game_id!r} is registered with cardgen (registered: {known}); "
                                          "a deck drawn from data needs a layout (layout.yaml, or layout: in game.yaml)")])
    schema_dirs = schema_dirs_for(Path(content_dir))
    if uses_data_definition(game_id):
        # The shared schema of data games, and the game's own as well when it brings one.
        errors.extend(check_schema(content, schema_dirs, "data-deck.schema.json"))
        if not errors and any((d / f"{game_id}.schema.json").is_file() for d in schema_dirs):
            errors.extend(check_schema(content, schema_dirs))
        if not errors:
            errors.extend(complete(content))
    else:
        errors.extend(check_schema(content, schema_dirs))
    if not errors:
        errors.extend(check_common(content))
    if not errors:
        from cardgen.registry import definition_for

        errors.extend(definition_for(game_id).check(content))
    if not errors:
        from cardgen.aids import check_aids

        errors.extend(recalled(content, "aids", check_aids))
    if errors:
        raise ContentErrors(errors)
    return content


def schema_dirs_for(content_dir: Path) -> list[Path]:
    """Where schemas are looked up, first match winning: the content folder's own `schema/` (a
    game brought from elsewhere may bring its schema), then the project's. A user can also copy one
    game's folder elsewhere, change it, and check it against the project's schemas."""
    own = Path(content_dir) / "schema"
    dirs = [own] if own.is_dir() and not _is_project_schemas(own) else []
    return dirs + [PROJECT_CONTENT / "schema"]


def _is_project_schemas(folder: Path) -> bool:
    try:
        return Path(folder).resolve() == (PROJECT_CONTENT / "schema").resolve()
    except (OSError, RuntimeError):
        return False


MAX_SCHEMA_BYTES = 2 * 1024 * 1024
JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def read_schema(path: Path) -> Any:
    """One schema file's JSON; a broken one is a ContentError naming that file and line."""
    return _parsed_schema(path, read_regular_file(path, MAX_SCHEMA_BYTES, "schema"))


def _parsed_schema(path: Path, raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise ContentError(str(path), exc.lineno, exc.colno, "$", f"broken schema (JSON): {exc.msg}") from None
    except UnicodeDecodeError:
        raise ContentError(str(path), 0, 0, "$", "broken schema: not valid UTF-8") from None
    except RecursionError:
        raise ContentError(str(path), 0, 0, "$", "broken schema: nested too deeply") from None


def load_schema_registry(schema_dirs: list[Path], root: Path | None = None) -> tuple["Registry", dict[str, Any]]:
    """Every schema of the folders (earlier folders override later ones), checked for `$ref`
    chains that lead back to themselves, which no validator can follow. A folder other than the
    project's, and every file in it, must lie inside `root` (the content folder): a link leading
    out is refused before anything behind it is listed or read."""
    from referencing import Registry  # with jsonschema, only when content is checked
    from referencing.jsonschema import DRAFT202012

    documents: dict[str, tuple[Path, Any]] = {}
    for schema_dir in reversed(schema_dirs):
        trusted = _is_project_schemas(schema_dir)
        if not trusted and root is not None and not inside(schema_dir, root):
            raise ContentError(str(schema_dir), 0, 0, "$", LINK_OUT)
        for path in sorted(schema_dir.glob("*.schema.json")):
            if not trusted and root is not None and not inside(path, root):
                raise ContentError(str(path), 0, 0, "$", LINK_OUT)
            raw = read_regular_file(path, MAX_SCHEMA_BYTES, "schema")
            document = _parsed_schema(path, raw)
            if not trusted:
                _check_user_schema(path, document, raw)
            documents[path.name] = (path, document)
    for name, (path, document) in documents.items():
        loop = _ref_loop(name, documents)
        if loop:
            raise ContentError(str(path), 0, 0, "$", f"broken schema: $ref loop {' -> '.join(loop)}")
    registry = Registry().with_resources(
        sorted((name, DRAFT202012.create_resource(document)) for name, (_, document) in documents.items()))
    return registry, {name: document for name, (_, document) in documents.items()}


def _ref_loop(name: str, documents: dict[str, tuple[Path, Any]]) -> list[str] | None:
    """A chain of schemas that are nothing but a `$ref` to the next, returning to its start."""

    def target(ref: str, here: str) -> tuple[str, str]:
        file, _, pointer = ref.partition("#")
        return (file or here), pointer

    def node_at(file: str, pointer: str):
        node = documents.get(file, (None, None))[1]
        for part in [p for p in pointer.split("/") if p]:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node

    stack = [(name, "")]
    while stack:
        file, pointer = stack.pop()
        node = node_at(file, pointer)
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref" and isinstance(value, str):
                    seen = [f"{file}#{pointer}"]
                    current = target(value, file)
                    while True:
                        label = f"{current[0]}#{current[1]}"
                        if label in seen:
                            return seen + [label]
                        seen.append(label)
                        follow = node_at(*current)
                        if not (isinstance(follow, dict) and isinstance(follow.get("$ref"), str)):
                            break
                        current = target(follow["$ref"], current[0])
                elif isinstance(value, (dict, list)):
                    stack.append((file, f"{pointer}/{key}"))
        elif isinstance(node, list):
            stack.extend((file, f"{pointer}/{i}") for i in range(len(node)))
    return None


def _check_user_schema(path: Path, document: Any, raw: bytes) -> None:
    """A schema brought with a content folder: JSON Schema 2020-12 (the dialect assumed when it
    names none), valid as a schema, and free of patterns whose matching time can explode. A file
    that passed is not checked again while its bytes and the code are as they were: checking a
    schema against JSON Schema's own takes longer than checking a game's data against it."""
    from cardgen.checkcache import bytes_key, recall, remember

    key = bytes_key("schema file", raw)
    if recall(key) == []:
        return
    _check_schema_document(path, document)
    remember(key, [])


def _check_schema_document(path: Path, document: Any) -> None:
    import jsonschema

    dialect = document.get("$schema") if isinstance(document, dict) else None
    if dialect is not None and (not isinstance(dialect, str) or dialect.rstrip("#") != JSON_SCHEMA_2020_12):
        raise ContentError(str(path), 0, 0, "$.$schema", f"unknown $schema {printable(dialect)!r}; schemas here "
                                                          f"are JSON Schema 2020-12 ({JSON_SCHEMA_2020_12})")
    try:
        jsonschema.Draft202012Validator.check_schema(document)
    except jsonschema.exceptions.SchemaError as exc:
        where = format_json_path(exc.absolute_path)
        raise ContentError(str(path), 0, 0, where, f"broken schema: {_shorten(exc.message)}") from None
    except RecursionError:
        raise ContentError(str(path), 0, 0, "$", "broken schema: nested too deeply") from None
    for json_path, pattern in _patterns(document):
        problem = slow_pattern(pattern)
        if problem:
            raise ContentError(str(path), 0, 0, format_json_path(json_path), f"pattern {printable(pattern)!r} {problem}")


def _patterns(node, json_path=()) -> Iterator[tuple[tuple, str]]:
    """Every regular expression of a schema: `pattern` values and `patternProperties` keys."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield json_path + (key,), value
            elif key == "patternProperties" and isinstance(value, dict):
                for pattern in value:
                    yield json_path + (key, pattern), pattern
            if isinstance(value, (dict, list)):
                yield from _patterns(value, json_path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterns(value, json_path + (i,))


def slow_pattern(pattern: str) -> str | None:
    """Why matching `pattern` may take exponential time (Python's matcher backtracks), or None.
    Refused: a repetition of something that itself repeats, offers alternatives longer than one
    character, or refers back to a group, as in `^(a+)+$` or `(a|aa)*`; such a pattern can keep
    a check busy for hours on a short text."""
    try:
        parsed = _regex_parser.parse(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return f"is not a regular expression: {exc}"

    def ambiguous(items) -> bool:
        """Whether one repetition's body could split a text in more than one way: it holds a
        repetition, a choice of longer alternatives or a back-reference, and nothing it must
        match exactly between them."""
        risky = fixed = False
        for op, arg in _flattened(items):
            name = str(op)
            if name.endswith("REPEAT"):
                if arg[0] == arg[1] and not ambiguous(arg[2]):
                    fixed = True
                elif arg[1] > 1 or ambiguous(arg[2]):
                    risky = True
            elif name == "BRANCH":
                if any(len(alt) != 1 or str(alt[0][0]) not in ("LITERAL", "NOT_LITERAL", "IN", "ANY") for alt in arg[1]):
                    return True  # alternatives of different lengths can split a text many ways
                fixed = True
            elif name.startswith("GROUPREF"):
                return True
            elif name in ("LITERAL", "NOT_LITERAL", "IN", "ANY"):
                fixed = True
        return risky and not fixed

    def check(items) -> bool:
        for op, arg in items:
            name = str(op)
            if name.endswith("REPEAT") and arg[1] > 1 and ambiguous(arg[2]):
                return True
            if any(check(sub) for sub in _subpatterns(name, arg)):
                return True
        return False

    return "can take exponential time to match (a repetition around a repetition or alternatives); " \
           "write it without nested repetition" if check(parsed) else None


def _flattened(items) -> list:
    """A parsed sequence with its groups opened up, so `((a+))` reads as `a+`."""
    result = []
    for op, arg in items:
        name = str(op)
        if name == "SUBPATTERN":
            result += _flattened(arg[3])
        elif name == "ATOMIC_GROUP":
            result += _flattened(arg)
        else:
            result.append((op, arg))
    return result


def _subpatterns(name: str, arg) -> list:
    """The parts nested in one parsed regular expression item."""
    if name.endswith("REPEAT"):
        return [arg[2]]
    if name == "SUBPATTERN":
        return [arg[3]]
    if name in ("ASSERT", "ASSERT_NOT", "ATOMIC_GROUP"):
        return [arg[1]] if name.startswith("ASSERT") else [arg]
    if name == "BRANCH":
        return list(arg[1])
    if name == "GROUPREF_EXISTS":
        return [part for part in arg[1:] if part is not None]
    return []


def check_schema(content: GameContent, schema_dirs: list[Path], name: str | None = None) -> list[ContentError]:
    """The game's files against its schema (`name`, by default `<game id>.schema.json`). A game's
    built-in schema (the project's) always applies; a content folder's own schemas are checked as
    well, so they can add rules but never let through data the game's code does not expect."""
    name = name or f"{content.id}.schema.json"
    own = [d for d in schema_dirs if not _is_project_schemas(d)]
    passes = []
    if (PROJECT_CONTENT / "schema" / name).is_file():
        passes.append([PROJECT_CONTENT / "schema"])
    if own and (not passes or any(d.is_dir() and any(d.glob("*.schema.json")) for d in own)) and not (
            passes and _copies_of_project_schemas(own, content.root.parent)):
        passes.append(schema_dirs)
    if not passes:
        return [ContentError(str(schema_dirs[0] / name), 0, 0, "$", f"no schema for game {content.id!r}")]
    from cardgen.checkcache import check_key, unless_passed

    def check() -> list[ContentError]:
        errors = [error for dirs in passes for error in _check_against(content, dirs, content.root.parent, name)]
        return list(dict.fromkeys(errors))  # one line for what several branches of a schema report alike

    # A game whose files, schemas and code are as they were when they last passed is not checked
    # again (`cardgen.checkcache`): checking is most of the time it takes to load a game. The
    # content folder's own schemas are part of its hash (a link counted as a link, never followed);
    # the project's own are read by their bytes.
    project = PROJECT_CONTENT / "schema"
    key = check_key(content.root.parent, "schema", content.id, {"name": name}, (),
                    tuple(sorted(project.glob("*.schema.json"))))
    return unless_passed(key, check)


def _copies_of_project_schemas(schema_dirs: list[Path], root: Path) -> bool:
    """Whether every schema of the folders is, byte for byte, the project's schema of that name (a
    content folder copied from the project's): checking against them finds what checking against
    the project's finds. A file that cannot be read plainly inside `root` is no copy."""
    project = PROJECT_CONTENT / "schema"
    for folder in schema_dirs:
        if not folder.is_dir():
            continue
        for path in folder.glob("*.schema.json"):
            if not (inside(path, root) and (project / path.name).is_file()):
                return False
            try:
                if read_regular_file(path, MAX_SCHEMA_BYTES, "schema") != (project / path.name).read_bytes():
                    return False
            except (ContentError, OSError):
                return False
    return True


SCHEMA_SECONDS = 20  # far beyond what checking any real content takes


class _TooSlow(Exception):
    pass


@contextmanager
def _time_limit(seconds: float | None):
    """Stop the block with `_TooSlow` after `seconds` (a safety net for patterns that backtrack
    beyond what `slow_pattern` recognises). Needs the main thread; elsewhere it does nothing."""
    if seconds is None or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise _TooSlow()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _check_against(content: GameContent, schema_dirs: list[Path], root: Path, name: str) -> list[ContentError]:
    import jsonschema  # a tenth of a second: imported only when content is checked

    try:
        registry, documents = load_schema_registry(schema_dirs, root)
    except ContentError as exc:
        return [exc]
    schema_path = next((d / name for d in schema_dirs if (d / name).is_file()), schema_dirs[0] / name)
    if name not in documents:
        return [ContentError(str(schema_path), 0, 0, "$", f"no schema for game {content.id!r}")]
    try:
        schema = documents[name]
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
        own = not all(_is_project_schemas(d) for d in schema_dirs)
        with _time_limit(SCHEMA_SECONDS if own else None):
            raw_errors = list(validator.iter_errors(content.files))
    except _TooSlow:
        return [ContentError(str(schema_path), 0, 0, "$", f"checking the files against this schema took more than "
                                                          f"{SCHEMA_SECONDS} s; does a pattern backtrack?")]
    except jsonschema.exceptions.SchemaError as exc:
        return [ContentError(str(schema_path), 0, 0, "$", f"broken schema: {_shorten(exc.message)}")]
    except (ValueError, TypeError, jsonschema.exceptions._WrappedReferencingError) as exc:
        return [ContentError(str(schema_path), 0, 0, "$", f"broken schema: {_shorten(str(exc))}")]
    except RecursionError:
        return [ContentError(str(schema_path), 0, 0, "$", "broken schema: references that never end (a $ref loop)")]
    errors = []
    for err in sorted(raw_errors, key=lambda e: [str(p) for p in e.absolute_path]):
        err = _most_useful(err)
        path = list(err.absolute_path)
        if not path:
            # A missing or unexpected file: the top level of the combined document is the folder.
            errors.append(ContentError(str(content.root), 0, 0, "$", _folder_message(err)))
            continue
        stem, rest = path[0], path[1:]
        unexpected = _unexpected_keys(err)
        if unexpected:
            known = _property_names(documents)
            for key in unexpected:
                close = difflib.get_close_matches(str(key), [k for k in known if k != key], n=1, cutoff=0.75)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                errors.append(content.locators[stem].error(rest + [key], f"unknown key {key!r}{hint}"))
            continue
        errors.append(content.locators[stem].error(rest, _shorten(err.message)))
    return errors


def _unexpected_keys(err) -> list[str]:
    if err.validator not in ("additionalProperties", "unevaluatedProperties") or not isinstance(err.instance, dict):
        return []
    if err.validator == "additionalProperties":
        allowed = set(err.schema.get("properties", {}))
        patterns = list(err.schema.get("patternProperties", {}))
        return [k for k in err.instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
    if "unexpected" not in err.message:
        return []
    # jsonschema lists the keys as their reprs: "(1, 'x' were unexpected)".
    listed = set(re.sub(r" (was|were) unexpected\)$", "", err.message.rsplit("(", 1)[-1]).split(", "))
    return [k for k in err.instance if repr(k) in listed]


def _property_names(documents: dict[str, Any]) -> list[str]:
    """Every property name the schemas know: candidates for a "did you mean"."""
    names: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    names.update(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for document in documents.values():
        walk(document)
    return sorted(names)


def _shorten(message: str, limit: int = 300) -> str:
    """jsonschema quotes the offending value; a huge one is cut so an error never floods the screen."""
    return message if len(message) <= limit else message[:limit] + f"... ({len(message) - limit} more characters)"


def _most_useful(err):
    from jsonschema.exceptions import best_match, relevance

    if err.context:
        return best_match(err.context, key=relevance) or err
    return err


def _folder_message(err) -> str:
    if err.validator == "required":
        missing = re.search(r"'([^']+)' is a required property", err.message)
        if missing:
            return f"missing file {missing.group(1)}.yaml"
    if err.validator == "additionalProperties":
        return "unexpected file: " + err.message.split("(")[-1].rstrip(")")
    return err.message


def check_common(content: GameContent) -> list[ContentError]:
    """Checks every game shares: references between files, deck counts, backs, rule placeholders."""
    errors = []
    game = content.game
    if game["id"] != content.id:
        errors.append(content.error("game", ["id"], f"{game['id']!r} differs from the folder name {content.id!r}"))
    if game["players"]["min"] > game["players"]["max"]:
        errors.append(content.error("game", ["players"], "min is larger than max"))
    deck_ids = set()
    group_backs: dict[str, str] = {}
    for i, deck in enumerate(game["decks"]):
        if deck["id"] in deck_ids:
            errors.append(content.error("game", ["decks", i, "id"], f"duplicate deck id {deck['id']!r}"))
        deck_ids.add(deck["id"])
        if deck["size"] not in game["card_sizes"]:
            errors.append(content.error("game", ["decks", i, "size"], f"unknown card size {deck['size']!r}"))
        if deck["back"] not in game["backs"]:
            errors.append(content.error("game", ["decks", i, "back"], f"unknown back {deck['back']!r}"))
        first = group_backs.setdefault(deck["shuffle_group"], deck["back"])
        if first != deck["back"]:
            errors.append(content.error(
                "game", ["decks", i, "back"],
                f"decks shuffled together (group {deck['shuffle_group']!r}) must share one back: "
                f"{deck['back']!r} differs from {first!r}",
            ))
    card_ids: dict[str, int] = {}
    for i, card in enumerate(content.cards):
        if card["deck"] not in deck_ids:
            errors.append(content.error("cards", ["cards", i, "deck"], f"unknown deck {card['deck']!r}"))
        if card["id"] in card_ids:
            errors.append(content.error(
                "cards", ["cards", i, "id"], f"duplicate card id {card['id']!r} (first at cards[{card_ids[card['id']]}])"
            ))
        card_ids.setdefault(card["id"], i)
    counts = content.deck_counts()
    for i, deck in enumerate(game["decks"]):
        if counts.get(deck["id"], 0) != deck["count"]:
            errors.append(content.error(
                "game", ["decks", i, "count"],
                f"deck {deck['id']!r} states {deck['count']} cards but cards.yaml has {counts.get(deck['id'], 0)}",
            ))
    total = sum(counts.values()) + sum(item.get("count", 1) for item in content.other_components())
    if total > MAX_COMPONENTS:
        errors.append(content.error("game", ["decks"], f"{total} components in all; a game has at most {MAX_COMPONENTS}"))
    errors.extend(recalled(content, "placeholders", check_placeholders))
    errors.extend(check_rulings(content))
    return errors


def recalled(content: GameContent, kind: str, check) -> list[ContentError]:
    """`check(content)`, run again only when the content folder or the code changed since it last
    passed (`cardgen.checkcache`). For checks that need the facts a text may quote: they include
    exact odds, which take a moment to work out and to load the library that works them out."""
    from cardgen.checkcache import check_key, unless_passed

    return unless_passed(check_key(content.root.parent, kind, content.id, {}, ()), lambda: check(content))


def kept_value(content: GameContent, kind: str, work_out: Callable[[GameContent], Any]) -> Any:
    """`work_out(content)`, a value read off the game's data that takes a moment to work out (the
    exact odds its texts and tables print, which need sympy), kept in the cache under the data as
    loaded, the content folder and the code (`cardgen.checkcache.kept`): a run on unchanged content
    reads it back. Exact fractions come back as `fractions.Fraction`."""
    from cardgen.checkcache import check_key, kept

    digest = content.data_digest()
    if digest is None:
        return work_out(content)
    return kept(check_key(content.root.parent, kind, content.id, {"data": digest}, ()), lambda: work_out(content))


def exact_odds(content: GameContent) -> list:
    """The rows of the game's exact odds (`GameDefinition.odds`), kept as `kept_value` keeps them."""
    from cardgen.registry import definition_for

    return kept_value(content, "odds", definition_for(content.id).odds)


def iter_texts(data, path=()) -> Iterator[tuple[tuple, str]]:
    """Every (json path, string) under `data` that is a language entry of a text object."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in LANGUAGES and isinstance(value, str):
                yield path + (key,), value
            else:
                yield from iter_texts(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from iter_texts(value, path + (i,))


# `{{` or `}}` (a literal brace), or `{name}`; anything else in braces is refused by the check.
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z][a-z0-9_-]{0,63})\}")


def placeholder_problem(text: str) -> str | None:
    """Why a text's braces are not all facts or escaped braces, or None."""
    rest = PLACEHOLDER.sub("", text)
    for brace in ("{", "}"):
        at = rest.find(brace)
        if at >= 0:
            return (f"bad placeholder near {rest[at:at + 24]!r}: write {{fact}} with a fact's name only, "
                    "or {{ and }} for a brace")
    return None


def check_placeholders(content: GameContent) -> list[ContentError]:
    errors = []
    facts = content.facts()
    for stem in ("rules", "rulings"):
        for path, text in iter_texts(content.files.get(stem)):
            problem = placeholder_problem(text)
            if problem:
                errors.append(content.error(stem, list(path), problem))
                continue
            names = [m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)]
            for name in names:
                if name not in facts:
                    errors.append(content.error(
                        stem, list(path), f"unknown fact {{{name}}}; known: {', '.join(sorted(facts))}"
                    ))
    return errors


def check_rulings(content: GameContent) -> list[ContentError]:
    errors = []
    for i, ruling in enumerate(content.files.get("rulings", {}).get("rulings", [])):
        if not (content.root / ruling["scenario"]).is_file():
            errors.append(content.error(
                "rulings", ["rulings", i, "scenario"], f"scenario {ruling['scenario']} not found"
            ))
    return errors


def read_inside(path: Path, root: Path, reader, errors: list[ContentError]):
    """`reader(path)` for a file inside `root`; None, with the error added to `errors`, for a link
    leading out of it or a file the reader refuses."""
    if not inside(path, root):
        errors.append(ContentError(str(path), 0, 0, "$", LINK_OUT))
        return None
    try:
        return reader(path)
    except ContentError as exc:
        errors.append(exc)
        return None


def load_card_sheets(content: GameContent) -> list[ContentError]:
    """Cards kept in `cards.csv` or `cards.xlsx`, instead of `cards.yaml` or after its cards."""
    from cardgen.spreadsheet import CardListLocator, card_sheet_of, read_card_sheet

    errors = []
    for path in card_sheet_of(content.root):
        read = read_inside(path, content.root, read_card_sheet, errors)
        if read is None:
            continue
        data, locator = read
        if "cards" not in content.files:
            content.files["cards"], content.locators["cards"] = data, locator
            continue
        listed = content.files["cards"].get("cards") if isinstance(content.files["cards"], dict) else None
        if not isinstance(listed, list):
            errors.append(content.error("cards", ["cards"], f"a list of cards is needed here to add those of {path.name}"))
            continue
        before = content.locators["cards"]
        parts = before.parts if isinstance(before, CardListLocator) else [(0, before)]
        content.locators["cards"] = CardListLocator(parts + [(len(listed), locator)])
        listed.extend(data["cards"])
    return errors


def load_games(content_dir: Path, game_ids: list[str] | None = None) -> tuple[list[GameContent], list[ContentError]]:
    """Load the named games (all when none is named); collect the errors of every game."""
    ids = game_ids or discover_games(content_dir)
    loaded, errors = [], []
    for game_id in ids:
        try:
            loaded.append(load_game(content_dir, game_id))
        except ContentErrors as exc:
            errors.extend(exc.errors)
    return loaded, errors


__all__ = [
    "GameContent", "LANGUAGES", "PROJECT_CONTENT", "discover_games", "exact_odds", "kept_value", "load_game",
    "load_games", "format_json_path",
]
