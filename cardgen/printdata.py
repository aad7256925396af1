"""Print data shared by every game, kept as YAML under `content/print/` and checked against
`content/print/print.schema.json`: print-shop profiles (`shops.yaml`), the texts of the assembly
page (`assembly.yaml`), and a printer profile that the user names with `--printer FILE` (no other
printer file is ever read). Every problem is reported at its file, line and column.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.content import PROJECT_CONTENT
from cardgen.errors import ContentError, ContentErrors, UsageError, display_path
from cardgen.pdfdoc import mm
from cardgen.yamlio import load_yaml

PRINT_DATA = PROJECT_CONTENT / "print"
SCHEMA_FILE = PRINT_DATA / "print.schema.json"


@dataclass(frozen=True)
class ShopProfile:
    id: str
    name: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    safe_mm: float
    dpi: int
    pixels: tuple[int, int]
    page_order: str
    size_tolerance_mm: float = 2.0
    files: str = "one"  # or "per-deck": a cards-<deck>.pdf for each deck as well
    cmyk_ink_limit: float | None = None  # percent; with it, a cards-cmyk.pdf converted through a CMYK profile

    @property
    def bleed(self) -> float:
        return self.bleed_mm * mm

    def pixels_for(self, trim_w_mm: float, trim_h_mm: float) -> tuple[int, int]:
        """The image size of a card of this trim with the profile's bleed at its resolution."""
        return (int(round((trim_w_mm + 2 * self.bleed_mm) / 25.4 * self.dpi)),
                int(round((trim_h_mm + 2 * self.bleed_mm) / 25.4 * self.dpi)))

    def fits(self, w_mm: float, h_mm: float) -> tuple[float, float] | None:
        """The shop's size for a card of w x h mm (turned for a landscape card), or None when the
        card is not this shop's size."""
        tw, th = self.trim_mm
        if w_mm > h_mm:
            tw, th = th, tw
        if abs(w_mm - tw) <= self.size_tolerance_mm and abs(h_mm - th) <= self.size_tolerance_mm:
            return tw, th
        return None


def _load_checked(path: Path, kind: str = "shops") -> dict:
    """The YAML file checked against the schema of its kind (shops, printer or assembly). A file
    that passed before, with the same bytes, schema and code, is not checked again
    (`cardgen.checkcache`)."""
    from cardgen.buildcache import build_key
    from cardgen.checkcache import recall, remember

    data, where = load_yaml(path)
    key = build_key(PRINT_DATA, {"check": "print data", "kind": kind}, (path, SCHEMA_FILE))
    if recall(key) == []:
        return data
    import jsonschema  # a tenth of a second, paid only when a file is checked

    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    schema.pop("oneOf", None)
    schema["$ref"] = f"#/$defs/{kind}_file"
    validator = jsonschema.Draft202012Validator(schema)
    errors = []
    for error in sorted(validator.iter_errors(data), key=lambda e: [str(k) for k in e.absolute_path]):
        detail = jsonschema.exceptions.best_match(error.context) if error.context else error
        errors.append(where.error(list(detail.absolute_path), detail.message))
    if errors:
        raise ContentErrors(errors)
    remember(key, [])
    return data


@lru_cache(maxsize=None)
def shop_profiles() -> tuple[str, dict[str, ShopProfile]]:
    """(default profile id, every profile by id) from content/print/shops.yaml."""
    path = PRINT_DATA / "shops.yaml"
    data = _load_checked(path)
    profiles = {}
    for key, entry in data["shops"].items():
        profile = ShopProfile(
            id=key, name=entry["name"], trim_mm=tuple(float(v) for v in entry["trim_mm"]),
            bleed_mm=float(entry["bleed_mm"]), safe_mm=float(entry["safe_mm"]), dpi=int(entry["dpi"]),
            pixels=tuple(int(v) for v in entry["pixels"]), page_order=entry["page_order"],
            size_tolerance_mm=float(entry.get("size_tolerance_mm", 2.0)), files=entry.get("files", "one"),
            cmyk_ink_limit=float(entry["cmyk"]["ink_limit_percent"]) if "cmyk" in entry else None)
        expected = profile.pixels_for(*profile.trim_mm)
        if expected != profile.pixels:
            raise ContentErrors([ContentError(str(path), 0, 0, f"$.shops.{key}.pixels",
                                              f"{list(profile.pixels)} does not match the trim, bleed and dpi, "
                                              f"which give {list(expected)}")])
        profiles[key] = profile
    default = data.get("default", next(iter(profiles)))
    if default not in profiles:
        raise ContentErrors([ContentError(str(path), 0, 0, "$.default", f"no shop profile {default!r}")])
    return default, profiles


def shop_profile(name: str | None) -> ShopProfile:
    default, profiles = shop_profiles()
    key = name or default
    if key not in profiles:
        raise UsageError(f"--shop {key}: no such profile; profiles in {PRINT_DATA / 'shops.yaml'}: "
                         f"{', '.join(profiles)}")
    return profiles[key]


def printer_offsets(path: Path) -> dict[str, tuple[float, float]]:
    """The back offsets (mm) by page orientation of a printer profile file the user named:
    `printer: {back_offset_mm: {portrait: [x, y], landscape: [x, y]}}`, or `back_offset_mm: [x, y]`
    for portrait pages alone."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"--printer: no file at {display_path(str(path))}")
    data = _load_checked(path, "printer")  # a pipe, a folder or a huge file is refused unread
    given = data["printer"].get("back_offset_mm", {})
    if isinstance(given, list):
        given = {"portrait": given}
    return {orientation: (float(x), float(y)) for orientation, (x, y) in given.items()}


@lru_cache(maxsize=None)
def assembly_texts() -> dict[str, dict[str, str]]:
    return _load_checked(PRINT_DATA / "assembly.yaml", "assembly")["assembly"]


__all__ = ["ShopProfile", "shop_profiles", "shop_profile", "printer_offsets", "assembly_texts", "PRINT_DATA"]
