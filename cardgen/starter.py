"""`cardgen new DIR`: a small deck to start from, made of data alone.

It writes a content folder `DIR` holding one game folder: `game.yaml` (title, two decks, two
backs), `layout.yaml` (the faces and one of the backs drawn from elements), `cards.csv` (the cards,
a `copies` column included) and `images/emblem.png`, a picture drawn here with Pillow. The deck
builds as it is; the files are written into a staging folder and moved into place whole, and an
existing folder is never written into.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from cardgen.errors import OutputError, UsageError

GAME_ID = "my-deck"

GAME_YAML = """\
# Your deck. Every key is explained in docs/your-own-deck.md.
id: {game_id}
title: My Deck
languages: [en]
card_sizes:
  poker: {{width_mm: 63, height_mm: 88}}
backs:
  crew: {{colour: "#24475e", title: My Deck}}
  events: {{colour: "#8a3b2a", title: Events}}
decks:
  - {{id: crew, name: crew cards, back: crew}}
  - {{id: events, name: event cards, back: events}}
"""

LAYOUT_YAML = """\
# What a card looks like: elements drawn in order, positions in mm from the top-left of the trim.
icons:
  star: images/emblem.png
faces:
  crew:
    - {type: background, colour: {by: team, map: {red: "#f6dcd5", blue: "#d8e4f0"}, default: "#f2efe6"}}
    - {type: rect, x: 4, y: 4, width: 55, height: 11, radius: 2, fill: "#ffffff", stroke: "#24475e", stroke_width: 0.8}
    - {type: text, text: "{name}", x: 6, y: 5, width: 40, height: 9, size: 13, font: sans-bold, valign: middle}
    - {type: circle, anchor: top-right, x: -5, y: 4.5, radius: 5, fill: "#24475e"}
    - {type: text, text: "{power}", anchor: top-right, x: -5, y: 4.5, width: 10, height: 10, size: 12,
       font: sans-bold, colour: "#ffffff", align: center, valign: middle}
    - {type: image, file: "{art}", x: 6, y: 18, width: 51, height: 36}
    - {type: text, text: "{text}", x: 6, y: 57, width: 51, height: 24, size: 10}
  events:
    - {type: background, colour: "#f5ede4"}
    - {type: text, text: "{name}", x: 6, y: 8, width: 51, height: 10, size: 14, font: sans-bold, align: center}
    - {type: image, file: images/emblem.png, anchor: top, y: 22, width: 24, height: 24}
    - {type: text, text: "{text}", x: 6, y: 50, width: 51, height: 30, size: 11, align: center}
backs:
  crew:
    - {type: background, colour: "#24475e"}
    - {type: image, file: images/emblem.png, anchor: center, width: 34, height: 34}
    - {type: text, text: "{title}", anchor: bottom, y: -9, width: 50, height: 9, size: 14, font: sans-bold,
       colour: "#ffffff", align: center}
  # The events back is not drawn here: it gets its colour and its title.
"""

CARDS_CSV = """\
name,team,power,art,text,deck,copies
Captain,red,5,images/emblem.png,Once a game: play a second card this turn.,crew,1
Navigator,blue,3,images/emblem.png,Look at the top two cards of the deck. Keep one :star:.,crew,2
Deckhand,red,1,images/emblem.png,Worth 1 :star: at the end of the game.,crew,4
Lookout,blue,2,images/emblem.png,Draw a card.,crew,2
Storm,,,,Every player passes one card to the left.,events,1
Fair Wind,,,,Each player draws a card.,events,2
"""


def emblem_png() -> bytes:
    """A compass star on a disc, 600 pixels square: 300 dpi at 51 mm. Drawn the same every time."""
    import io
    import math

    from PIL import Image, ImageDraw

    size = 600
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))  # transparent around the disc
    draw = ImageDraw.Draw(image)
    centre = size / 2
    draw.ellipse([30, 30, size - 30, size - 30], fill="#24475e")
    draw.ellipse([70, 70, size - 70, size - 70], outline="#e8b04a", width=14)
    points = []
    for k in range(16):
        radius = (210 if k % 4 == 0 else 140) if k % 2 == 0 else 55  # long and short points, notches
        angle = math.pi / 2 + k * math.pi / 8
        points.append((centre + radius * math.cos(angle), centre - radius * math.sin(angle)))
    draw.polygon(points, fill="#e8b04a")
    draw.ellipse([centre - 26, centre - 26, centre + 26, centre + 26], fill="#f2efe6")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def starter_files(game_id: str = GAME_ID) -> dict[str, bytes]:
    """Every file of the starter deck, by its path inside the game's folder."""
    return {
        "game.yaml": GAME_YAML.format(game_id=game_id).encode("utf-8"),
        "layout.yaml": LAYOUT_YAML.encode("utf-8"),
        "cards.csv": CARDS_CSV.encode("utf-8"),
        "images/emblem.png": emblem_png(),
    }


def write_starter(content_dir: Path, game_id: str = GAME_ID) -> Path:
    """Write the starter deck as `content_dir/<game_id>/`; the game's folder. `content_dir` may
    exist (another game's folder beside it is left alone); the game's folder may not."""
    content_dir = Path(content_dir)
    game_dir = content_dir / game_id
    if game_dir.exists() or game_dir.is_symlink():
        raise UsageError(f"{game_dir} already exists; name a new folder")
    try:
        content_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{game_id}.new-", dir=content_dir))
    except OSError as exc:
        raise OutputError(content_dir, exc) from None
    try:
        for name, data in starter_files(game_id).items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        os.chmod(staging, 0o777 & ~_umask())
        os.replace(staging, game_dir)
    except OSError as exc:
        raise OutputError(game_dir, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return game_dir


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["GAME_ID", "starter_files", "write_starter"]
