"""What a native reader of Hindi and Arabic found unnatural (issue 23), each pinned: the
words the code builds, not only the catalogue's."""

from __future__ import annotations

from app import i18n
from app.words import spoken

FSI, PDI = "\u2068", "\u2069"


def test_a_run_is_spoken_as_a_list() -> None:
    with i18n.use_locale("hi"):
        assert (
            spoken("कॉलम 3 के ढेर (7♣ 6♥) का कोई भी पत्ता 8♠ पर नहीं रखा जा सकता।")
            == "कॉलम 3 के ढेर (चिड़ी का 7, पान का 6) का कोई भी पत्ता हुकुम के 8 पर नहीं रखा जा सकता।"
        )
    with i18n.use_locale("ar"):
        assert spoken(f"({FSI}7♣ 6♥{PDI})") == f"({FSI}7 السباتي، 6 الكبة{PDI})"
    with i18n.use_locale("en"):
        assert spoken("run 7♣ 6♥ 5♠") == "run 7 of clubs, 6 of hearts, 5 of spades"


def test_cards_joined_before_a_postposition_are_all_oblique() -> None:
    with i18n.use_locale("hi"):
        assert (
            spoken("वहाँ केवल 10♦ या 10♥ को रखा जा सकता है।")
            == "वहाँ केवल ईंट के 10 या पान के 10 को रखा जा सकता है।"
        )
        assert spoken("Q♠ और K♠ पर") == "हुकुम की बेगम और हुकुम के बादशाह पर"
        # Not before a postposition: the plain names.
        assert spoken("10♦ और Q♠") == "ईंट का 10 और हुकुम की बेगम"
        assert spoken("7♣ 6♥ को") == "चिड़ी के 7, पान के 6 को"
