#!/usr/bin/env python3
"""Golden fixtures for Tencent Cloud IM webhooks (IMWireWebhooks and Examples/Sources/WebhookServer),
written by Python's standard library (hashlib, json) from Tencent's published pages. Nothing here
imports or runs Swift; Scripts/regenerate runs it (generator `webhook_fixtures`) and --check compares.

    python3 Scripts/gen_webhook_fixtures.py    # write Fixtures/webhooks/

Fixtures/webhooks/:
  signatures.json   [{"token", "request_time", "sign"}]: sign = hashlib.sha256(token + request_time)
                    in lowercase hex. The first case is Tencent's published example ("Webhook Overview",
                    Security Considerations), and this script fails if hashlib disagrees with the page.
  sha256.json       {"generated": [{"length", "sha256"}], "texts": [{"text", "repeat", "sha256"}]}: the
                    module's own SHA-256 against hashlib. "generated": every message length from 0 to
                    300 bytes, byte i of a message of n bytes being (131 * i + 7 * n) mod 256 (every
                    padding case: lengths 55, 56, 63, 64 and their multiples of a block); "texts":
                    the examples of NIST's "Secure Hash Standard" (FIPS 180-4) and its example
                    values ("abc", the 448- and 896-bit messages, one million "a"), and the empty
                    message. This script fails if hashlib disagrees with the published digests.
  NAME.input.json   a callback body, byte for byte (json.dumps(indent=4), the layout of Tencent's
                    examples); the bodies are Tencent's samples from "Before a One-to-One Message Is
                    Sent" / "Before Group Message Is Sent", with the text or custom data changed.
  NAME.response.json the webhook's answer, compact JSON (json.dumps(separators=(",", ":"),
                    ensure_ascii=False): only '"', '\\' and U+0000-U+001F escaped), keys in the order of
                    Tencent's response examples: ActionStatus, ErrorInfo, ErrorCode, then MsgBody and
                    CloudCustomData for a replaced message.
  cases.json        every NAME with its command and, for the moderation cases, the banned words.

Two kinds of answer cases:
  "replace_example": the module's own test: Tencent's sample request answered with Tencent's sample
      modified message (a text and a custom elem, new CloudCustomData), written as canonical tim-rest.
  "moderation": the example service's rule, implemented here independently of its Swift code:
      BANNED_WORDS is a list of words; a message whose custom data (a TIMCustomElem's Data, Desc, Ext or
      Sound, or CloudCustomData) contains one is refused with the first app code of its command (120001
      one-to-one, 10100 group) and ErrorInfo "custom data contains a banned word"; otherwise every
      occurrence of a word in a TIMTextElem's Text is replaced by one "*" per code point (words applied in
      list order, each left to right, as str.replace) and, if any text changed, the whole MsgBody is sent
      back with the other elems unchanged (ErrorCode 0); otherwise the message is allowed unchanged.
      After-send callbacks are always allowed.

The MsgBody of an answer is canonical tim-rest, written here from Tencent's "Message Formats" key lists
in the order the TimRest article (IMWire.docc) documents: every MsgContent key of the elem's type,
defaults included ("Desc": "", "Download_Flag": 2).
"""

import hashlib
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Fixtures" / "webhooks"

PUBLISHED = ("xxxxyyyy", "1669872112", "17773bc39a671d7b9aa835458704d2a6db81360a5940292b587d6d760d484061")

# NIST's SHA-256 examples ("Secure Hash Standard" example values): text, repetitions, digest.
SHA256_EXAMPLES = [
    ("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
     "mnopqrstnopqrstu", 1, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ("a", 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
]

SIGNATURES = [
    PUBLISHED[:2],
    ("a", "0"),
    ("令牌-token", "1700000000"),
    ("x" * 128, "1669872173"),
]

C2C_BEFORE = "C2C.CallbackBeforeSendMsg"
C2C_AFTER = "C2C.CallbackAfterSendMsg"
GROUP_BEFORE = "Group.CallbackBeforeSendMsg"
APP_CODE = {C2C_BEFORE: 120001, GROUP_BEFORE: 10100}
REFUSAL = "custom data contains a banned word"
BANNED = ["red packet", "casino", "赌场"]


def c2c_before(body, cloud=None):
    """Tencent's C2C.CallbackBeforeSendMsg sample with another MsgBody (and CloudCustomData)."""
    request = {
        "CallbackCommand": C2C_BEFORE,
        "From_Account": "jared",
        "To_Account": "John",
        "MsgSeq": 48374,
        "MsgRandom": 2837546,
        "MsgTime": 1557481126,
        "MsgKey": "48374_2837546_1557481126",
        "OnlineOnlyFlag": 1,
        "MsgBody": body,
    }
    if cloud is not None:
        request["CloudCustomData"] = cloud
    return request


def group_before(body, cloud=None):
    """Tencent's Group.CallbackBeforeSendMsg sample with another MsgBody (and CloudCustomData)."""
    request = {
        "CallbackCommand": GROUP_BEFORE,
        "GroupId": "@TGS#2J4SZEAEL",
        "Type": "Community",
        "From_Account": "jared",
        "Operator_Account": "admin",
        "Random": 123456,
        "OnlineOnlyFlag": 1,
        "MsgBody": body,
        "TopicId": "@TGS#_@TGS#cQVLVHIM62CJ@TOPIC#_TestTopic",
        "EventTime": "1670574414123",
    }
    if cloud is not None:
        request["CloudCustomData"] = cloud
    return request


def text(value):
    return {"MsgType": "TIMTextElem", "MsgContent": {"Text": value}}


IMAGE = {"MsgType": "TIMImageElem", "MsgContent": {
    "UUID": "1853095_D61040894AC3DE44CDFFFB3EC7EB720F",
    "ImageFormat": 1,
    "ImageInfoArray": [
        {"Type": 1, "Size": 1853095, "Width": 2448, "Height": 3264,
         "URL": "http://example.com/1853095_D61040894AC3DE44CDFFFB3EC7EB720F"},
        {"Type": 3, "Size": 2000, "Width": 150, "Height": 200,
         "URL": "http://example.com/thumb_D61040894AC3DE44CDFFFB3EC7EB720F"},
    ]}}

# Every MsgContent key of the types used here, in canonical order, with its default.
CONTENT_KEYS = {
    "TIMTextElem": [("Text", None)],
    "TIMCustomElem": [("Data", None), ("Desc", ""), ("Ext", ""), ("Sound", "")],
    "TIMFaceElem": [("Index", None), ("Data", "")],
}
IMAGE_KEYS = [("Type", None), ("Size", 0), ("Width", 0), ("Height", 0), ("URL", "")]


def canonical_elem(elem):
    kind, content = elem["MsgType"], elem["MsgContent"]
    if kind == "TIMImageElem":
        return {"MsgType": kind, "MsgContent": {
            "UUID": content["UUID"],
            "ImageFormat": content.get("ImageFormat", 0),
            "ImageInfoArray": [{key: entry.get(key, default) for key, default in IMAGE_KEYS}
                               for entry in content["ImageInfoArray"]],
        }}
    return {"MsgType": kind, "MsgContent": {key: content.get(key, default) for key, default in CONTENT_KEYS[kind]}}


def answer(code=0, info="", body=None, cloud=None):
    response = {"ActionStatus": "OK", "ErrorInfo": info, "ErrorCode": code}
    if body is not None:
        response["MsgBody"] = [canonical_elem(elem) for elem in body]
    if cloud is not None:
        response["CloudCustomData"] = cloud
    return response


def moderate(command, request, words):
    if not command.endswith("CallbackBeforeSendMsg"):
        return answer()
    custom = [request.get("CloudCustomData", "")]
    for elem in request["MsgBody"]:
        if elem["MsgType"] == "TIMCustomElem":
            custom += [elem["MsgContent"].get(key, "") for key in ("Data", "Desc", "Ext", "Sound")]
    if any(word in value for value in custom for word in words):
        return answer(APP_CODE[command], REFUSAL)
    body, changed = [], False
    for elem in request["MsgBody"]:
        if elem["MsgType"] == "TIMTextElem":
            masked = elem["MsgContent"]["Text"]
            for word in words:
                masked = masked.replace(word, "*" * len(word))
            changed |= masked != elem["MsgContent"]["Text"]
            elem = text(masked)
        body.append(elem)
    return answer(body=body) if changed else answer()


CUSTOM_LEVEL = {"MsgType": "TIMCustomElem", "MsgContent": {"Desc": " CustomElement.MemberLevel ", "Data": " LV1"}}

MODERATION = [
    ("c2c_before_send_banned_word", C2C_BEFORE, c2c_before([text("want a red packet? \"red packet\"\n")],
                                                           "your cloud custom data")),
    ("c2c_before_send_clean", C2C_BEFORE, c2c_before([text("hello")])),
    ("c2c_before_send_text_and_image", C2C_BEFORE, c2c_before([text("赌场 tonight"), IMAGE])),
    ("c2c_before_send_banned_custom_data", C2C_BEFORE,
     c2c_before([text("hi"), {"MsgType": "TIMCustomElem", "MsgContent": {"Data": "{\"link\":\"casino.example\"}"}}])),
    ("c2c_before_send_banned_cloud_custom_data", C2C_BEFORE, c2c_before([text("red packet")], "casino")),
    ("group_before_send_banned_word", GROUP_BEFORE, group_before([text("red packet"), CUSTOM_LEVEL],
                                                                 "your cloud custom data")),
    ("group_before_send_banned_custom_data", GROUP_BEFORE,
     group_before([{"MsgType": "TIMCustomElem", "MsgContent": {"Data": "x", "Desc": "casino night"}}])),
    ("c2c_after_send_banned_word", C2C_AFTER,
     dict(c2c_before([text("red packet")]), CallbackCommand=C2C_AFTER, SendMsgResult=0,
          ErrorInfo="send msg succeed", UnreadMsgNum=1)),
]


def main():
    token, time, sign = PUBLISHED
    computed = hashlib.sha256((token + time).encode("utf-8")).hexdigest()
    if computed != sign:
        sys.exit(f"gen_webhook_fixtures: sha256({token}{time}) is {computed}, the page says {sign}")

    files = {}
    texts = []
    for text_, repeat, digest in SHA256_EXAMPLES:
        computed = hashlib.sha256((text_ * repeat).encode("ascii")).hexdigest()
        if computed != digest:
            sys.exit(f"gen_webhook_fixtures: sha256 of {text_!r} x {repeat} is {computed}, NIST says {digest}")
        texts.append({"text": text_, "repeat": repeat, "sha256": computed})
    generated = [{"length": n, "sha256": hashlib.sha256(bytes((131 * i + 7 * n) % 256 for i in range(n))).hexdigest()}
                 for n in range(301)]
    files["sha256.json"] = {"generated": generated, "texts": texts}
    files["signatures.json"] = [
        {"token": token, "request_time": time,
         "sign": hashlib.sha256((token + time).encode("utf-8")).hexdigest()} for token, time in SIGNATURES]

    cases = []
    # The module's rewrite: Tencent's sample request, answered with Tencent's sample modified message.
    request = c2c_before([text("red packet")], "your cloud custom data")
    files["replace_example.input.json"] = request
    files["replace_example.response.json"] = answer(body=[text("red packet"), CUSTOM_LEVEL],
                                                    cloud="your new cloud custom data")
    cases.append({"name": "replace_example", "kind": "replace_example", "command": C2C_BEFORE})
    for name, command, request in MODERATION:
        files[f"{name}.input.json"] = request
        files[f"{name}.response.json"] = moderate(command, request, BANNED)
        cases.append({"name": name, "kind": "moderation", "command": command, "banned_words": BANNED})
    files["cases.json"] = cases

    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    for name, value in sorted(files.items()):
        if name.endswith(".response.json"):
            data = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        else:
            data = json.dumps(value, indent=4, ensure_ascii=False)
        (OUT / name).write_bytes(data.encode("utf-8"))
    print(f"gen_webhook_fixtures: wrote {len(files)} files under Fixtures/webhooks/")


if __name__ == "__main__":
    main()
