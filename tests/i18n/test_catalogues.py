"""The catalogues: up to date with the code, complete in Hindi and Arabic, well formed."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from babel.messages.catalog import Message

from app import i18n
from tests.i18n.catalogues import (
    TRANSLATED,
    MessageId,
    catalogue,
    extracted,
    key,
    template,
)

FIX: str = "Run `make messages`, translate what it adds, and commit locales/."

PLURAL_FORMS = {
    "hi": "nplurals=2; plural=n != 1;",
    "ar": (
        "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
        "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"
    ),
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
TAG = re.compile(r"</?[a-z]+[^>]*>")


def test_the_template_has_every_message_of_the_code() -> None:
    in_code = extracted()
    in_template = {key(message.id, message.context) for message in template() if message.id}
    missing = sorted(
        show(m) + "  (" + ", ".join(sorted(set(in_code[m]))) + ")"
        for m in set(in_code) - in_template
    )
    stale = sorted(show(m) for m in in_template - set(in_code))
    assert not missing, (
        "messages missing from locales/messages.pot:\n" + "\n".join(missing) + "\n" + FIX
    )
    assert not stale, "messages no longer in the code:\n" + "\n".join(stale) + "\n" + FIX


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str) -> None:
    po = catalogue(code)
    wanted = {key(message.id, message.context) for message in template() if message.id}
    have = {key(message.id, message.context): message for message in po if message.id}
    assert not wanted - set(have), (
        f"not in {code}'s catalogue: {sorted(map(str, wanted - set(have)))}\n{FIX}"
    )
    assert not set(have) - wanted, f"{code} has messages the code no longer uses\n{FIX}"
    assert not po.obsolete, f"obsolete #~ entries in {code}: {list(po.obsolete)}"
    untranslated = [str(m.id) for m in have.values() if not _all_forms(m)]
    fuzzy = [str(m.id) for m in have.values() if m.fuzzy]
    assert not untranslated, f"untranslated in {code}: {untranslated}"
    assert not fuzzy, f"fuzzy in {code}: {fuzzy}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_header(code: str) -> None:
    po = catalogue(code)
    assert po.plural_forms == PLURAL_FORMS[code]
    assert po.num_plurals == i18n.plural_forms(code)  # type: ignore[arg-type]
    for message in po:
        if message.id and message.pluralizable:
            assert len(message.string) == po.num_plurals, message.id


@pytest.mark.parametrize("code", TRANSLATED)
def test_babel_checkers_pass(code: str) -> None:
    po = catalogue(code)
    problems = [
        f"{message.id!r}: {error}" for message in po if message.id for error in message.check(po)
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_and_markup_are_kept(code: str) -> None:
    """Every placeholder and tag of the English comes back; plural forms that say the
    number in words (Arabic ``ورقتان``) may leave ``%(num)d`` out, the general ones not."""
    problems = []
    for message in catalogue(code):
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[1]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        expected = Counter(PLACEHOLDER.findall(source))
        for index, form in enumerate(forms):
            found = Counter(PLACEHOLDER.findall(form))
            general = len(forms) == 1 or index >= len(forms) - 3 or code != "ar"
            if (found != expected) if general else not found <= expected:
                problems.append(f"{source!r} form {index}: {form!r}")
            if sorted(TAG.findall(form)) != sorted(TAG.findall(source)):
                problems.append(f"{source!r} markup: {form!r}")
    assert not problems, "\n".join(problems)


def show(message: MessageId) -> str:
    """A message as a translator would look for it: ``[context] "id" / "plural"``."""
    if isinstance(message, str):
        return repr(message)
    context = message[0][:-1] if message[0].endswith("\x04") else ""
    ids = " / ".join(map(repr, message[1:] if context else message))
    return f"[{context}] {ids}" if context else ids


def _all_forms(message: Message) -> bool:
    forms = [message.string] if isinstance(message.string, str) else list(message.string)
    return all(form.strip() for form in forms)


def test_arabic_plurals_choose_the_right_form() -> None:
    with i18n.use_locale("ar"):
        forms = [
            i18n.ngettext("%(num)d move", "%(num)d moves", n) % {"num": n}
            for n in (0, 1, 2, 3, 11, 100)
        ]
    assert forms == ["لا نقلات", "نقلة واحدة", "نقلتان", "3 نقلات", "11 نقلة", "100 نقلة"]
    with i18n.use_locale("hi"):
        assert i18n.ngettext("%(num)d move", "%(num)d moves", 1) % {"num": 1} == "1 चाल"
        assert i18n.ngettext("%(num)d move", "%(num)d moves", 5) % {"num": 5} == "5 चालें"


GLOSSARY = [
    # (English, case-sensitive pattern; Hindi; Arabic), as locales/GLOSSARY.md chooses them
    (r"\bgaps?\b", "रिक्त स्थान", "فراغ"),
    (r"\b[Kk]ings?\b", "बादशाह", "ملك|ملوك"),
    (r"\b[Aa]ces?\b", "इक्क", "آص"),
    (r"\b[Ff]ree cells?\b", "फ्री सेल", "خان(?:ة|ات|تان|تين) (?:ال)?حر"),
    (r"\b[Ff]oundations?\b", "नींव", "أساس"),
    (r"\b[Rr]edeal", "फेंट", "توزيع"),
    (r"\b[Dd]eals?\b", "डील", "توزيع|وزّع"),
    (r"\bsuits?\b", "सूट", "شكل|أشكال"),
    (r"\bcolours?\b", "रंग|लाल", "لون|ألوان|تلوين|أحمر|حمراء"),
    (r"\b[Rr]ows?\b", "पंक्ति", "صف"),
    (r"\b[Cc]olumns?\b", "कॉलम", "عمود|أعمدة"),
    (r"\b[Cc]ards?\b", "पत्त", "ورق|أوراق"),
    (r"\b[Uu]ndo\b", "वापस", "تراجع"),
    (r"\b[Hh]ints?\b", "संकेत", "تلميح"),
    (r"\b[Ss]core\b", "स्कोर", "نقاط"),
    (r"\b[Jj]ack\b", "गुलाम", "ولد"),
    (r"\b[Dd]eal numbers?\b", "डील नंबर", "رقم التوزيعة|أرقام التوزيعات"),
]

SEED_PHRASES = ("لا توجد نقلة: أعد التوزيع",)
"""A seed's own words, kept as the seed has them though they skip a glossary term
(004's «لا توجد نقلة: أعد التوزيع» names no card)."""

AVOIDED = [
    # (pattern, language column, why): words the glossary chose against
    ("शायب|شايب", 2, "the Jack is ولد: شايب is the King in common usage (GLOSSARY.md)"),
    ("डील संख्या", 1, "one term per concept: डील नंबर"),
    ("आम जीत", 1, "the median win is माध्यिका (मीडियन): आम reads 'common' (issue 43)"),
    ("وقت الفوز المعتاد", 2, "the median win is الوقت الوسيط للفوز (issue 43)"),
]


@pytest.mark.parametrize(("code", "column"), [("hi", 1), ("ar", 2)])
def test_words_the_glossary_chose_against_are_gone(code: str, column: int) -> None:
    problems = []
    for message in catalogue(code):
        text = " ".join([message.string] if isinstance(message.string, str) else message.string)
        for pattern, where, why in AVOIDED:
            if where == column and message.id and re.search(pattern, text):
                problems.append(f"{why}: {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("code", "column"), [("hi", 1), ("ar", 2)])
def test_game_words_follow_the_glossary(code: str, column: int) -> None:
    """A message that names a game word uses the glossary's term for it, every time."""
    problems = []
    for message in catalogue(code):
        if not message.id:
            continue
        source = " ".join([message.id] if isinstance(message.id, str) else message.id)
        source = PLACEHOLDER.sub("", source)
        text = " ".join([message.string] if isinstance(message.string, str) else message.string)
        if any(phrase in text for phrase in SEED_PHRASES):
            continue
        for entry in GLOSSARY:
            if re.search(entry[0], source) and not re.search(entry[column], text):
                problems.append(f"{entry[0]} → {entry[column]}: {source!r} = {text!r}")
    assert not problems, "\n".join(problems)
