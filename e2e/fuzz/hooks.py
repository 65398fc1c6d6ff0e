"""Schemathesis hooks of the platform's fuzz run (e2e/openapi-fuzz.e2e-spec.ts).

The document says what JSON Schema can say. A few rules it cannot (a reference must name an
existing object, a cursor must be one the API gave out, each CEA-608 channel once) are taught to
the generator here, on data that already has the documented shape; nothing else is changed.
"""
import json
import re
from urllib.parse import unquote

import schemathesis


@schemathesis.check
def no_undeclared_server_error(ctx, response, case):
    """Any 5xx fails, except a 501 `not_implemented` error body on an operation that declares 501."""
    status = response.status_code
    if status < 500:
        return None
    if status == 501 and "501" in (case.operation.definition.raw.get("responses") or {}):
        try:
            error_type = json.loads(response.text)["error"]["type"]
        except (ValueError, KeyError, TypeError):
            error_type = None
        if error_type == "not_implemented":
            return None
        raise AssertionError(f"501 without the not_implemented error body: {response.text[:300]}")
    raise AssertionError(f"Server error {status}: {response.text[:300]}")


CHANNELS = ["cc1", "cc2", "cc3", "cc4"]


def _strings(value):
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _dicts(value):
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    query = case.query if isinstance(case.query, dict) else None
    if query is not None and isinstance(query.get("cursor"), str):
        # generated strings are never cursors this API gave out (a 400 by design)
        del query["cursor"]
    body = case.body if isinstance(case.body, dict) else None
    if body is None:
        return
    generated = body.get("generated_subtitles")
    if _dicts(generated):
        for item in generated:
            if _strings(item.get("transcription_vocabulary_ids")):
                # generated ids name no vocabulary (a 400 by design)
                item["transcription_vocabulary_ids"] = []
    embedded = body.get("embedded_subtitles")
    if _dicts(embedded) and len(embedded) <= len(CHANNELS):
        for item, channel in zip(embedded, CHANNELS):
            if item.get("language_channel") in CHANNELS:
                item["language_channel"] = channel
            else:
                item.setdefault("language_channel", channel)


@schemathesis.hook("before_call")
def main_input_without_url(ctx, case, **kwargs):
    """A direct upload's or a live stream's main input is the file or the stream: its url is omitted."""
    body = case.body if isinstance(case.body, dict) else None
    settings = body.get("new_asset_settings") if body is not None else None
    if not isinstance(settings, dict):
        return
    for key in ("input", "inputs"):
        value = settings.get(key)
        if isinstance(value, str):
            del settings[key]
        elif _dicts(value) and value and isinstance(value[0].get("url"), str):
            del value[0]["url"]


ADDRESS_STANDIN = "93.184.216.34"
AUTHORITY = re.compile(r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^/?#]*@)?(?P<host>\[[^\]/?#]*\]|[^:/?#]*)(?P<rest>.*)$", re.S)
NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")


def _maybe_refused_host(host):
    """An IP literal in any form a WHATWG URL parser reads as one (8.8.8.8, 0x7f.1, [::1]), or a localhost name."""
    host = unquote(host).lower().rstrip(".")
    if host.startswith("[") or ":" in host:
        return True
    if host == "localhost" or host.endswith(".localhost"):
        return True
    labels = host.split(".")
    return bool(labels) and NUMERIC_LABEL.match(labels[-1]) is not None


def _public_host(url):
    match = AUTHORITY.match(url)
    if match is None or not _maybe_refused_host(match.group("host")):
        return url
    return f"{match.group('scheme')}{match.group('user') or ''}{ADDRESS_STANDIN}{match.group('rest')}"


def _replace_urls(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (key.endswith("url") or key in ("input", "inputs")):
                value[key] = _public_host(item)
            else:
                _replace_urls(item)
    elif isinstance(value, list):
        for item in value:
            _replace_urls(item)


@schemathesis.hook("before_call")
def urls_on_public_hosts(ctx, case, **kwargs):
    """A URL whose host is an address the platform never connects to (reserved, link-local, metadata) is
    a 400 by design (OUTBOUND_ALLOW, libs/outbound); JSON Schema cannot say which addresses those are, so
    an address-like host is replaced by a public one and the rest of the URL is kept as generated."""
    if isinstance(case.body, (dict, list)):
        _replace_urls(case.body)
