"""The Tabletop Simulator saved object: image addresses relative to it (or under --tts-url), the
same bytes wherever it is built, and cards nicknamed with their titles."""

from __future__ import annotations

import json

from cardgen.tts import tts_outputs
from tests.test_cli import run


def saved_object_bytes(content, game_dir, base_url=None) -> bytes:
    (path, render), = [(p, r) for p, r in tts_outputs(content, game_dir, base_url) if p.suffix == ".json"]
    render(path)
    return path.read_bytes()


def test_addresses_are_relative_and_the_object_is_the_same_wherever_it_is_built(trains, tmp_path):
    here = saved_object_bytes(trains, tmp_path / "one" / trains.id)
    there = saved_object_bytes(trains, tmp_path / "elsewhere" / "two" / trains.id)
    assert here == there
    for deck in json.loads(here)["ObjectStates"]:
        for custom in deck["CustomDeck"].values():
            assert custom["FaceURL"].startswith("deck-") and custom["FaceURL"].endswith(".png")
            assert custom["BackURL"].startswith("back-")


def test_a_base_address_names_the_hosted_images(trains, tmp_path):
    saved = json.loads(saved_object_bytes(trains, tmp_path / trains.id, "https://example.org/decks/"))
    urls = [c["FaceURL"] for deck in saved["ObjectStates"] for c in deck["CustomDeck"].values()]
    assert urls and all(url.startswith("https://example.org/decks/deck-") for url in urls)


def test_cards_are_nicknamed_with_their_titles(trains, tmp_path):
    saved = json.loads(saved_object_bytes(trains, tmp_path / trains.id))
    cards = {card["Description"].split()[0]: card["Nickname"] for deck in saved["ObjectStates"]
             for card in deck["ContainedObjects"]}
    assert cards["c01"] == "Carriage card: 1, ability 3"
    assert not any(nickname == card_id for card_id, nickname in cards.items())


def test_the_base_address_must_be_an_address(capsys):
    code, _, err = run(capsys, "build", "game-of-trains", "--layout", "tts", "--tts-url", "not an address")
    assert code == 2 and "--tts-url must be an address" in err
