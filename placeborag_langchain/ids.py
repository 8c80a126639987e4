"""Document ids: deterministic generation, and the id rules of an integration over its engine.

Real integrations name a document without an id with `uuid4()`, so two runs of the same test
store different ids. Here a generated id is a digest of what is being added: the text, the
metadata (canonical JSON, keys sorted) and an ordinal, the count of ids this store has generated
before. The same sequence of adds therefore yields the same ids on every run and machine, while
adding the same text twice still yields two documents (as with uuid4). The digest is formatted
the way the real integration formats its random ids (dashed UUID, or 32 hex digits for Qdrant:
`docs/integrations/langchain.md#lc-chroma-ids-generated`, `#lc-qdrant-ids-generated`).

Which ids a store takes is `DocumentIds`: the integration's own checks, or the engine's id rule
(the profile's `IdRule`) where the integration hands ids to the engine's client as given.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from placeborag_core.adapter_kit import require_unicode
from placeborag_core.backends import IdRule
from placeborag_langchain.integration_facts import IntegrationFacts

__all__ = ["DocumentIds", "generated_id", "repeated"]

_ID_SCHEME = b"placeborag-langchain-id-v1"


def _canonical_json(metadata: Mapping[str, Any]) -> str:
    return json.dumps(metadata, sort_keys=True, separators=(",", ":"), default=repr)


def generated_id(
    text: str, metadata: Mapping[str, Any], ordinal: int, style: Literal["uuid", "hex"]
) -> str:
    """A deterministic id for a document added without one.

    `sha256(scheme, text, canonical metadata JSON, ordinal)`, the first 16 bytes as a
    name-based (version 5 layout) UUID; `style="hex"` drops the dashes like `uuid4().hex`.
    """
    digest = hashlib.sha256()
    for part in (_ID_SCHEME, text.encode("utf-8"), _canonical_json(metadata).encode("utf-8")):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    digest.update(ordinal.to_bytes(8, "big"))
    value = uuid.UUID(bytes=digest.digest()[:16], version=5)
    return value.hex if style == "hex" else str(value)


def repeated(values: Iterable[Any]) -> list[Any]:
    """Every value seen before, in order (a value repeated twice appears once more)."""
    seen: set[Any] = set()
    repeated = []
    for value in values:
        if value in seen:
            repeated.append(value)
        seen.add(value)
    return repeated


@dataclass(frozen=True)
class DocumentIds:
    """The document ids one store takes, as its integration checks them (see
    `IntegrationFacts.id_checks`), mapped to core record ids."""

    facts: IntegrationFacts
    engine: IdRule

    def record_id(self, value: Any) -> str:
        """The core record id of a document id being added; ValueError with the integration's
        (or the engine's) message for an id it refuses."""
        if self.facts.id_checks == "engine":
            canonical = self.engine.canonical(value)
            if canonical is None:
                raise ValueError(self.engine.message.format(id=value))
            return canonical
        error = self.facts.id_error_type
        if not isinstance(value, str):
            raise error(self.facts.id_type_error.format(id=value, type=type(value).__name__))
        if not value:
            raise error(self.facts.id_empty_error)
        return value

    def lookup(self, ids: Iterable[Any], call: str = "delete") -> list[str]:
        """The core record ids to look up for a delete (`call`) or a read by id ("get").

        An id the engine refuses is skipped silently where the engine checks ids (Qdrant:
        `docs/integrations/langchain.md#lc-qdrant-get-by-ids`). Where the integration checks
        them, an id that is not a str raises its error (Chroma: "Expected ID to be a str, got 1
        in delete."; the default profile: TypeError), or (FAISS, which looks ids up as given)
        matches no document: the caller sees it as missing."""
        if self.facts.id_checks == "engine":
            values = list(ids)
            refused = self.facts.id_lookup_error
            for value in values:
                if refused is not None and not isinstance(value, str | int | uuid.UUID):
                    kind, template = refused
                    raise kind(template.format(id=value, type=type(value).__name__, call=call,
                                               cls=type(value)))  # fmt: skip
            canonical = (self.engine.canonical(i) for i in values)
            return [i for i in canonical if i is not None]
        found = []
        for value in ids:
            if isinstance(value, str):
                require_unicode(value, "each id")
                found.append(value)
                continue
            refused = self.facts.id_lookup_error
            if refused is not None:
                kind, template = refused
                raise kind(
                    template.format(id=value, type=type(value).__name__, call=call, cls=type(value))
                )
        return found

    def for_get(self, ids: list[Any]) -> list[str]:
        """The core record ids of a read by id, refusing what the integration refuses.

        Chroma refuses an empty list and a repeated id
        (`docs/integrations/langchain.md#lc-chroma-get-by-ids-empty`,
        `#lc-chroma-get-by-ids-duplicate`).
        """
        facts = self.facts
        if not ids and facts.get_empty_error is not None:
            raise ValueError(facts.get_empty_error)
        if facts.get_duplicate_error is not None:
            dups = repeated(ids)
            if dups:
                raise ValueError(facts.get_duplicate_error.format(dups=", ".join(map(str, dups))))
        return self.lookup(ids, "get")
