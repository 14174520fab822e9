#!/usr/bin/env python3
"""Write the benchmark corpora (issue 7) into Benchmarks/Corpora/out/ (or --out DIR).

    python3 Benchmarks/Corpora/generate.py            # write the five corpora and manifest.json
    python3 Benchmarks/Corpora/generate.py --out DIR  # somewhere else
    python3 Benchmarks/Corpora/generate.py --stats    # also print the per-kind statistics

Corpora (the first four are synthetic, made from a fixed seed; the fifth is Fixtures/valid):

    chat      3,000 realistic group messages: 70 % short text (ASCII, CJK, emoji, mixed), 15 % image
              (origin, large and thumb sizes), 10 % custom elem with a JSON payload, 5 % group tips
    random    2,000 generated messages with every field kind (every elem kind, every scalar type, maps,
              oneofs, unknown enum numbers, doubles, negative int32) and nested mergers
    merger300 one message holding a merger of 300 text messages
    text12k   one message whose text elem is exactly 12,288 bytes of UTF-8
    chat-KIND the chat messages of one kind (text, image, custom, tips), for per-kind malloc thresholds
    fixtures  the Fixtures/valid/*.binpb (sorted by name) with their .json, less those with unknown fields
              (JSON cannot carry them) and those a peer refuses outright (FIXTURES_EXCLUDED); manifest.json
              lists what was left out and why

File format (all harnesses read it): NAME.msgs holds the canonical binary of each message, NAME.json.msgs
its canonical JSON; both are a sequence of records, each a 4-byte little-endian length followed by that
many bytes. manifest.json lists, per corpus, the counts, sizes, SHA-256 of both files and the numbers the
malloc thresholds are computed from (see README "Benchmarks").

The bytes are made by Python google.protobuf (upb), independent of the Swift code under test:
binary = SerializeToString(deterministic=True) (no map key here is a prefix of another, so upb's order is
the canonical one), JSON = the same canonical form as Fixtures/ (json_format.MessageToDict, map keys
sorted, compact separators, raw UTF-8). The synthetic corpora avoid what protobuf-c cannot round-trip
(U+0000 in strings, -0.0, empty map keys or values), so every peer can be checked byte for byte.

Deterministic: only random.Random(SEED) and fixed tables are used. checksums.txt beside this script holds
the SHA-256 of the synthetic corpora as committed; a different result is reported (exit 0, with a
warning), since it means tables made from these corpora are no longer comparable.

Needs python3, protobuf (Scripts/requirements.txt) and protoc on PATH (or $PROTOC).
"""

import argparse
import hashlib
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCHEMA_DIR = ROOT / "Schemas"
SCHEMA_FILE = "imwire/v1/message.proto"
FIXTURES_VALID = ROOT / "Fixtures" / "valid"
CHECKSUMS = HERE / "checksums.txt"

SEED = 20240707
# Valid fixtures a peer cannot decode at all, so that every implementation times the same messages.
FIXTURES_EXCLUDED = {
    "map_keys_canonically_equivalent": "swift-protobuf's JSON decoder rejects map keys that Swift's String == "
                                       "finds equal (malformedMap)",
    "merger_nested_100_layers": "nested deeper than the peers' default recursion limits (upb: 'Exceeded "
                                "upb_DecodeOptions_MaxDepth'; swift-protobuf's messageDepthLimit is 100)",
}
SYNTHETIC = ("chat", "random", "merger300", "text12k")
CHAT_KINDS = ("text", "image", "custom", "tips")

# Swift stores a String of up to 15 UTF-8 bytes inline (64-bit platforms); longer ones need a heap buffer.
SWIFT_SMALL_STRING_MAX = 15


def load_message_class():
    protoc = os.environ.get("PROTOC", "protoc")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "imwire.pb"
        subprocess.run(
            [protoc, "--include_imports", f"--descriptor_set_out={out}", "-I", str(SCHEMA_DIR),
             str(SCHEMA_DIR / SCHEMA_FILE)],
            check=True,
        )
        fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("imwire.v1.Message"))


Message = load_message_class()
M = Message.DESCRIPTOR.file  # enum values by name: M.enum_types_by_name["Priority"]...


def enum_value(enum_name, value_name):
    return M.enum_types_by_name[enum_name].values_by_name[value_name].number


# ------------------------------------------------------------------------------------------------
# Canonical forms


def is_repeated(fd):
    flag = getattr(fd, "is_repeated", None)
    return flag if flag is not None else fd.label == fd.LABEL_REPEATED


def is_map(fd):
    return fd.message_type is not None and fd.message_type.GetOptions().map_entry


def sort_json_maps(msg, obj):
    """Sort the keys of every map in MessageToDict output (as Fixtures/ does); recurse."""
    for fd, value in msg.ListFields():
        name = fd.json_name
        if is_map(fd):
            obj[name] = dict(sorted(obj[name].items()))
        elif fd.message_type is not None and is_repeated(fd):
            for sub, sub_obj in zip(value, obj[name]):
                sort_json_maps(sub, sub_obj)
        elif fd.message_type is not None:
            sort_json_maps(value, obj[name])


def canonical_binary(msg):
    check_map_keys(msg)
    data = msg.SerializeToString(deterministic=True)
    again = Message.FromString(data)
    assert again == msg, "binary round trip changed the message"
    return data


def canonical_json(msg):
    obj = json_format.MessageToDict(msg, preserving_proto_field_name=False)
    sort_json_maps(msg, obj)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def check_map_keys(msg):
    """upb's deterministic order equals byte order unless a key is a prefix of another: refuse those."""
    for fd, value in msg.ListFields():
        if is_map(fd):
            keys = sorted(k.encode() for k in value)
            for a, b in zip(keys, keys[1:]):
                assert not b.startswith(a), f"map key {a!r} is a prefix of {b!r}"
            assert all(keys) and all(value[k] for k in value), "empty map key or value"
        elif fd.message_type is not None:
            for sub in (value if is_repeated(fd) else [value]):
                check_map_keys(sub)


def heap_counts(msg):
    """(strings longer than Swift's inline 15 bytes, non-empty bytes values), over the whole tree."""
    strings = blobs = 0
    for fd, value in msg.ListFields():
        if is_map(fd):
            for k, v in value.items():
                strings += len(k.encode()) > SWIFT_SMALL_STRING_MAX
                blobs += len(v) > 0
            continue
        values = value if is_repeated(fd) else [value]
        for v in values:
            if fd.type == fd.TYPE_STRING:
                strings += len(v.encode()) > SWIFT_SMALL_STRING_MAX
            elif fd.type == fd.TYPE_BYTES:
                blobs += len(v) > 0
            elif fd.message_type is not None:
                s, b = heap_counts(v)
                strings += s
                blobs += b
    return strings, blobs


# ------------------------------------------------------------------------------------------------
# Text material

ENGLISH = (
    "ok", "sure", "thanks", "see you at 8", "on my way", "lol", "sounds good", "who is coming tonight?",
    "meeting moved to 3pm", "can someone send the link again", "I'll be 10 minutes late", "nice!",
    "happy birthday", "good morning everyone", "did you see the update?", "let me check",
    "the build is green again", "does anyone have the slides from yesterday", "brb", "yes", "no",
    "haha that's great", "deploying now", "pushed the fix", "who wants coffee", "same here",
    "please review my PR when you have time", "the train is delayed again", "let's do friday",
)
CHINESE = (
    "好的", "收到", "明天见", "哈哈哈", "今天晚上一起吃饭吗？", "我到了", "谢谢大家", "辛苦了",
    "这个方案可以", "稍等一下", "会议改到下午三点", "文件已经发到群里了", "周末去爬山吗", "没问题",
    "大家早上好", "生日快乐", "我马上到", "请大家准时参加", "已经修复了，麻烦再测一下", "在吗？",
    "晚点再说", "这个价格有点贵", "[微笑]", "[强]", "红包已领取", "好久不见", "路上堵车了",
)
OTHER = ("了解です", "ありがとう", "안녕하세요", "감사합니다", "¡vamos!", "ça marche", "спасибо", "Grüße")
EMOJI = ("😂", "👍", "🎉", "❤️", "🙏", "🍜", "😅", "🔥", "👏", "😭", "🤔", "✅", "👀", "🥳", "👨‍👩‍👧")
NICKS = ("Alice", "Bob", "小明", "王芳", "Charlie", "李雷", "韩梅梅", "Dana", "Евгений", "さくら", "Tom", "阿杰")


def chat_text(rng):
    """A short chat line: English, Chinese, other scripts, emoji, or a mix."""
    r = rng.random()
    if r < 0.35:
        text = rng.choice(ENGLISH)
    elif r < 0.70:
        text = rng.choice(CHINESE)
    elif r < 0.78:
        text = rng.choice(OTHER)
    elif r < 0.88:
        text = "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 3)))
    else:
        parts = [rng.choice(ENGLISH + CHINESE) for _ in range(rng.randint(2, 3))]
        text = " ".join(parts)
    if rng.random() < 0.2:
        text += rng.choice(EMOJI)
    if rng.random() < 0.06:  # the occasional longer message
        text = "，".join(rng.choice(CHINESE) for _ in range(rng.randint(4, 9)))
    return text


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def upper_id(rng, n):
    return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(n))


# ------------------------------------------------------------------------------------------------
# chat


def make_chat(rng, count=3000):
    groups = ["@TGS#2" + upper_id(rng, 8) for _ in range(3)]
    users = [f"u{rng.randint(10_000_000, 99_999_999)}" for _ in range(60)]
    nick = {u: rng.choice(NICKS) for u in users}
    seq = {g: rng.randint(1_000, 50_000) for g in groups}
    ts = 1_700_000_000_000
    # The exact mix of the issue, in a shuffled order.
    kinds = ["text"] * (count * 70 // 100) + ["image"] * (count * 15 // 100) + ["custom"] * (count * 10 // 100)
    kinds += ["tips"] * (count - len(kinds))
    rng.shuffle(kinds)
    out = []
    for kind in kinds:
        group = rng.choice(groups)
        sender = rng.choice(users)
        ts += rng.randint(200, 90_000)
        seq[group] += 1
        m = Message()
        m.msg_id = f"{144115200000000000 + rng.randint(0, 99_999_999)}-{ts // 1000}-{rng.randint(1, 2**31 - 1)}"
        m.sender = sender
        m.group_id = group
        m.timestamp_ms = ts
        m.seq = seq[group]
        m.random = rng.getrandbits(32)
        if rng.random() < 0.2:
            m.priority = enum_value("Priority", "PRIORITY_NORMAL")

        if kind == "text":
            m.elems.add().text.text = chat_text(rng)
            if rng.random() < 0.04:
                m.at_user_list.append(rng.choice(users))
            if rng.random() < 0.05:  # a reply: TUIKit puts the quoted message in cloudCustomData
                reply = {"messageReply": {"messageID": m.msg_id[:18], "messageAbstract": chat_text(rng)[:20],
                                          "messageSender": nick[rng.choice(users)], "messageType": 1,
                                          "version": 1}}
                m.cloud_custom_data = json.dumps(reply, separators=(",", ":"), ensure_ascii=False).encode()
        elif kind == "image":
            fill_chat_image(rng, m.elems.add().image, sender)
        elif kind == "custom":
            fill_chat_custom(rng, m.elems.add().custom, users, nick)
        else:
            m.sender = "@TIM#SYSTEM"
            fill_chat_tips(rng, m.elems.add().group_tips, group, users, nick)
        if rng.random() < 0.03:
            m.need_read_receipt = True
        out.append((kind, m))
    return out


def fill_chat_image(rng, image, sender):
    fmt = rng.choice(("IMAGE_FORMAT_JPG", "IMAGE_FORMAT_JPG", "IMAGE_FORMAT_PNG", "IMAGE_FORMAT_GIF"))
    image.format = enum_value("ImageFormat", fmt)
    uuid = f"{sender}_{hexid(rng, 16)}"
    ext = {"IMAGE_FORMAT_JPG": "jpg", "IMAGE_FORMAT_PNG": "png", "IMAGE_FORMAT_GIF": "gif"}[fmt]
    w, h = rng.choice(((3024, 4032), (4032, 3024), (1080, 1920), (1170, 2532), (800, 800)))
    size = rng.randint(300_000, 4_000_000)
    base = f"https://cos.ap-shanghai.myqcloud.com/im-1400000000/{uuid}.{ext}"
    for tname, scale, quality in (("IMAGE_TYPE_ORIGIN", 1, None), ("IMAGE_TYPE_LARGE", 720, 0.12),
                                  ("IMAGE_TYPE_THUMB", 198, 0.01)):
        img = image.images.add()
        img.type = enum_value("ImageType", tname)
        img.uuid = uuid if scale == 1 else f"{uuid}_{scale}"
        if scale == 1:
            img.size, img.width, img.height, img.url = size, w, h, base
        else:
            k = scale / min(w, h)
            img.size = int(size * quality)
            img.width, img.height = round(w * k), round(h * k)
            img.url = f"{base}?w={scale}"


def fill_chat_custom(rng, custom, users, nick):
    r = rng.random()
    if r < 0.4:
        payload = {"businessID": "text_link", "text": rng.choice(("Welcome to the group!", "欢迎加入群聊",
                                                                  "Check out the new release")),
                   "link": "https://example.com/r/" + hexid(rng, 8), "version": 4}
        custom.desc = "[Link]"
    elif r < 0.7:
        payload = {"businessID": "order", "orderId": upper_id(rng, 10), "title": rng.choice(("Noodles", "咖啡", "Tickets")),
                   "price": rng.randint(100, 99_999) / 100, "version": 1}
        custom.desc = "[Order]"
    elif r < 0.9:
        payload = {"businessID": "evaluation", "score": rng.randint(1, 5), "comment": chat_text(rng), "version": 1}
    else:
        payload = {"businessID": "user_typing_status", "typingStatus": 1, "version": 1, "userAction": 14}
    custom.data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    if rng.random() < 0.3:
        custom.ext = '{"push":1}'


def fill_member(rng, info, user, nick, full):
    info.user_id = user
    info.nick_name = nick[user]
    if full:
        info.face_url = f"https://avatar.example.com/{user}.png"
        info.role = enum_value("GroupMemberRole", rng.choice(("GROUP_MEMBER_ROLE_MEMBER", "GROUP_MEMBER_ROLE_ADMIN")))
        info.join_time = rng.randint(1_600_000_000, 1_700_000_000)


def fill_chat_tips(rng, tips, group, users, nick):
    tips.group_id = group
    kind = rng.choice(("JOIN", "INVITE", "QUIT", "KICKED", "GROUP_INFO_CHANGE", "MEMBER_INFO_CHANGE"))
    tips.type = enum_value("GroupTipsType", "GROUP_TIPS_TYPE_" + kind)
    op = rng.choice(users)
    fill_member(rng, tips.op_member, op, nick, full=True)
    if kind in ("JOIN", "INVITE", "QUIT", "KICKED"):
        for u in rng.sample(users, rng.randint(1, 2)):
            fill_member(rng, tips.member_list.add(), u, nick, full=False)
        tips.member_count = rng.randint(20, 500)
    elif kind == "GROUP_INFO_CHANGE":
        change = tips.group_change_list.add()
        change.type = enum_value("GroupInfoChangeType", "GROUP_INFO_CHANGE_TYPE_NAME")
        change.value = rng.choice(("周末爬山群", "Project Phoenix", "家人们", "Release 2.0 war room"))
    else:
        member = rng.choice(users)
        fill_member(rng, tips.member_list.add(), member, nick, full=False)
        mute = tips.member_change_list.add()
        mute.user_id = member
        mute.mute_time = rng.choice((60, 600, 3600, 86400))
    tips.platform = rng.choice(("iOS", "Android", "Web", "Windows"))


# ------------------------------------------------------------------------------------------------
# random


def random_string(rng, max_len=16):
    n = rng.randint(0, max_len)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            out.append(chr(rng.randint(0x20, 0x7E)))
        elif r < 0.62:
            out.append(rng.choice('"\\\n\t/\u001f\u007f'))  # JSON escapes and controls (never U+0000)
        elif r < 0.72:
            out.append(chr(rng.randint(0xA0, 0x7FF)))
        elif r < 0.90:
            out.append(chr(rng.randint(0x4E00, 0x9FFF)))
        else:
            out.append(chr(rng.randint(0x1F300, 0x1FAFF)))
    return "".join(out)


def random_bytes(rng, max_len=24):
    return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, max_len)))


def random_uint(rng, bits):
    """Spread over magnitudes: small, medium, large, and the extremes."""
    r = rng.random()
    if r < 0.3:
        return rng.randint(0, 127)
    if r < 0.6:
        return rng.randint(0, 2**14)
    if r < 0.85:
        return rng.getrandbits(rng.randint(1, bits))
    return rng.choice((0, 1, 2**bits - 1, 2**(bits - 1)))


def random_enum(rng, enum_name):
    values = [v.number for v in M.enum_types_by_name[enum_name].values]
    if rng.random() < 0.05:
        return rng.choice((77, 1000))  # open enum: a number the schema does not name
    return rng.choice(values)


def maybe(rng, p=0.5):
    return rng.random() < p


def random_double(rng):
    r = rng.random()
    if r < 0.7:
        return rng.uniform(-180.0, 180.0)
    if r < 0.8:
        return rng.choice((0.5, 1e-300, 5e-324, 1.7976931348623157e308, -123456.789))
    if r < 0.9:
        return float(rng.randint(-90, 90))
    return rng.choice((float("inf"), float("-inf"), float("nan")))


def fill_random_member(rng, info):
    if maybe(rng, 0.9):
        info.user_id = random_string(rng, 16)
    if maybe(rng):
        info.nick_name = random_string(rng)
    if maybe(rng, 0.2):
        info.friend_remark = random_string(rng)
    if maybe(rng, 0.3):
        info.name_card = random_string(rng)
    if maybe(rng, 0.3):
        info.face_url = "https://avatar.example.com/" + random_string(rng, 12)
    if maybe(rng):
        info.role = random_enum(rng, "GroupMemberRole")
    if maybe(rng):
        info.join_time = random_uint(rng, 64)
    if maybe(rng, 0.2):
        info.mute_until = random_uint(rng, 64)
    if maybe(rng, 0.3):
        for i in range(rng.randint(1, 3)):
            # Equal-length keys: none is a prefix of another (see check_map_keys).
            info.custom_info[f"k{i}_{hexid(rng, 4)}"] = random_bytes(rng, 12) or b"\x00"


def fill_random_elem(rng, elem, depth):
    kinds = ["text", "custom", "image", "sound", "video", "file", "location", "face", "group_tips",
             "group_system"]
    if depth < 2:
        kinds.append("merger")
    kind = rng.choice(kinds)
    if kind == "text":
        elem.text.text = random_string(rng, 60)
    elif kind == "custom":
        c = elem.custom
        c.SetInParent()
        if maybe(rng, 0.8):
            c.data = random_bytes(rng, 40)
        if maybe(rng):
            c.desc = random_string(rng)
        if maybe(rng, 0.3):
            c.ext = random_string(rng)
        if maybe(rng, 0.2):
            c.sound = random_string(rng, 10)
    elif kind == "image":
        im = elem.image
        im.SetInParent()
        if maybe(rng, 0.8):
            im.format = random_enum(rng, "ImageFormat")
        for _ in range(rng.randint(0, 3)):
            img = im.images.add()
            img.type = random_enum(rng, "ImageType")
            img.uuid = random_string(rng, 20)
            img.size = random_uint(rng, 64)
            img.width = random_uint(rng, 32)
            img.height = random_uint(rng, 32)
            if maybe(rng):
                img.url = "https://img.example.com/" + random_string(rng, 16)
    elif kind == "sound":
        s = elem.sound
        s.SetInParent()
        s.uuid = random_string(rng, 20)
        if maybe(rng):
            s.url = random_string(rng, 30)
        s.data_size = random_uint(rng, 64)
        s.duration = random_uint(rng, 32)
        if maybe(rng):
            s.format = rng.choice(("mp3", "aac", "amr", "opus"))
    elif kind == "video":
        v = elem.video
        v.SetInParent()
        v.video_uuid = random_string(rng, 20)
        if maybe(rng):
            v.video_url = random_string(rng, 30)
        v.video_size = random_uint(rng, 64)
        if maybe(rng):
            v.video_format = "mp4"
        v.duration = random_uint(rng, 32)
        if maybe(rng):
            v.snapshot_uuid = random_string(rng, 20)
            v.snapshot_url = random_string(rng, 30)
            v.snapshot_size = random_uint(rng, 64)
            v.snapshot_width = random_uint(rng, 32)
            v.snapshot_height = random_uint(rng, 32)
            v.snapshot_format = "jpg"
    elif kind == "file":
        f = elem.file
        f.SetInParent()
        if maybe(rng, 0.8):
            f.uuid = random_string(rng, 20)
        if maybe(rng):
            f.url = random_string(rng, 30)
        f.file_name = random_string(rng, 20)
        f.file_size = random_uint(rng, 64)
    elif kind == "location":
        loc = elem.location
        loc.SetInParent()
        if maybe(rng, 0.8):
            loc.desc = random_string(rng)
        loc.longitude = random_double(rng)
        loc.latitude = random_double(rng)
    elif kind == "face":
        face = elem.face
        face.SetInParent()
        r = rng.random()
        # int32: small, large, negative (a 10-byte sign-extended varint) and the extremes.
        face.index = (rng.randint(0, 200) if r < 0.5 else rng.randint(-2**31, 2**31 - 1) if r < 0.85
                      else rng.choice((-1, -2**31, 2**31 - 1)))
        if maybe(rng):
            face.data = random_bytes(rng, 16)
    elif kind == "group_tips":
        t = elem.group_tips
        t.SetInParent()
        t.group_id = random_string(rng, 14)
        t.type = random_enum(rng, "GroupTipsType")
        if maybe(rng, 0.7):
            fill_random_member(rng, t.op_member)
        for _ in range(rng.randint(0, 2)):
            fill_random_member(rng, t.member_list.add())
        for _ in range(rng.randint(0, 2)):
            ch = t.group_change_list.add()
            ch.type = random_enum(rng, "GroupInfoChangeType")
            if maybe(rng):
                ch.value = random_string(rng)
            if maybe(rng, 0.3):
                ch.key = random_string(rng, 10)
            ch.bool_value = maybe(rng)
            if maybe(rng, 0.3):
                ch.int_value = random_uint(rng, 32)
            if maybe(rng, 0.3):
                ch.uint64_value = random_uint(rng, 64)
        for _ in range(rng.randint(0, 2)):
            mc = t.member_change_list.add()
            mc.user_id = random_string(rng, 12)
            mc.mute_time = random_uint(rng, 32)
        if maybe(rng):
            t.member_count = random_uint(rng, 32)
        if maybe(rng, 0.3):
            t.group_name = random_string(rng)
        if maybe(rng, 0.5):
            t.platform = rng.choice(("iOS", "Android", "Windows", "Mac", "Web", "RESTful API", "Unknown"))
    elif kind == "group_system":
        g = elem.group_system
        g.SetInParent()
        g.type = random_enum(rng, "GroupSystemType")
        g.group_id = random_string(rng, 14)
        if maybe(rng):
            g.op_user = random_string(rng, 12)
        if maybe(rng):
            g.reason = random_string(rng)
        if maybe(rng, 0.3):
            g.msg_key = random_uint(rng, 64)
        if maybe(rng, 0.3):
            g.auth_key = random_bytes(rng, 16)
        if maybe(rng, 0.3):
            g.user_data = random_bytes(rng, 16)
        if maybe(rng, 0.3):
            fill_random_member(rng, g.op_member)
        if maybe(rng, 0.3):
            g.platform = random_string(rng, 8)
    else:  # merger
        mg = elem.merger
        mg.SetInParent()
        if maybe(rng, 0.8):
            mg.title = random_string(rng)
        for _ in range(rng.randint(0, 3)):
            mg.abstract_list.append(random_string(rng, 20))
        if maybe(rng):
            mg.compatible_text = random_string(rng, 12)
        mg.layers_over_limit = maybe(rng, 0.1)
        for _ in range(rng.choice((1, 1, 2))):
            fill_random_message(rng, mg.messages.add(), depth + 1)


def fill_random_message(rng, m, depth=0):
    if maybe(rng, 0.9):
        m.msg_id = random_string(rng, 36)
    if maybe(rng, 0.9):
        m.sender = random_string(rng, 16)
    r = rng.random()
    if r < 0.3:
        m.receiver = random_string(rng, 16)
    elif r < 0.6:
        m.group_id = random_string(rng, 16)
    elif r < 0.75:
        m.room_id = random_string(rng, 16)
    if maybe(rng, 0.8):
        m.timestamp_ms = random_uint(rng, 64)
    if maybe(rng, 0.6):
        m.seq = random_uint(rng, 64)
    if maybe(rng, 0.6):
        m.random = random_uint(rng, 64)
    if maybe(rng, 0.5):
        m.priority = random_enum(rng, "Priority")
    n = rng.choice((1, 1, 1, 1, 2, 2, 3)) if depth == 0 else rng.choice((1, 1, 2))
    for _ in range(n):
        fill_random_elem(rng, m.elems.add(), depth)
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        m.at_user_list.append(random_string(rng, 16))
    for _ in range(rng.choice((0, 0, 0, 0, 1, 2))):
        m.targeted_receivers.append(random_string(rng, 16))
    if maybe(rng, 0.3):
        m.cloud_custom_data = random_bytes(rng, 30)
    if depth == 0 and maybe(rng, 0.2):
        p = m.offline_push_info
        p.SetInParent()
        if maybe(rng):
            p.title = random_string(rng)
        if maybe(rng):
            p.desc = random_string(rng)
        if maybe(rng, 0.3):
            p.ext = random_string(rng)
        p.disable_push = maybe(rng, 0.2)
        if maybe(rng, 0.3):
            p.ios_sound = random_string(rng, 10)
        if maybe(rng, 0.3):
            p.android_sound = random_string(rng, 10)
        p.ignore_ios_badge = maybe(rng, 0.2)
        if maybe(rng, 0.3):
            p.ios_push_type = random_enum(rng, "IosPushType")
    m.need_read_receipt = maybe(rng, 0.2)
    m.excluded_from_unread_count = maybe(rng, 0.1)
    m.excluded_from_last_message = maybe(rng, 0.1)
    m.online_user_only = maybe(rng, 0.1)
    m.support_message_extension = maybe(rng, 0.1)


def make_random(rng, count=2000):
    out = []
    for _ in range(count):
        m = Message()
        fill_random_message(rng, m)
        out.append(("random", m))
    return out


# ------------------------------------------------------------------------------------------------
# merger300 and text12k


def make_merger300(rng):
    users = [f"u{rng.randint(10_000_000, 99_999_999)}" for _ in range(8)]
    m = Message()
    m.msg_id = f"{144115200000000000 + rng.randint(0, 99_999_999)}-1700100000-{rng.randint(1, 2**31 - 1)}"
    m.sender = users[0]
    m.receiver = f"u{rng.randint(10_000_000, 99_999_999)}"
    m.timestamp_ms = 1_700_100_000_000
    m.seq = 4242
    m.random = rng.getrandbits(32)
    mg = m.elems.add().merger
    mg.title = "群聊的聊天记录"
    mg.compatible_text = "[聊天记录]"
    ts = 1_700_000_000_000
    for i in range(300):
        sub = mg.messages.add()
        ts += rng.randint(1_000, 60_000)
        sub.msg_id = hexid(rng, 12)
        sub.sender = rng.choice(users)
        sub.timestamp_ms = ts
        sub.elems.add().text.text = chat_text(rng)
        if i < 4:
            mg.abstract_list.append(f"{sub.sender}: {sub.elems[0].text.text}"[:40])
    return [("merger", m)]


def make_text12k(rng):
    m = Message()
    m.msg_id = "144115233002212345-1700000000-42"
    m.sender = "u31415926"
    m.group_id = "@TGS#2TEXT12K"
    m.timestamp_ms = 1_700_000_000_000
    m.seq = 1
    m.random = 271828
    parts = []
    size = 0
    while size < 12_288 - 64:
        p = chat_text(rng) + (". " if rng.random() < 0.5 else "\n")
        parts.append(p)
        size += len(p.encode())
    text = "".join(parts)
    text += "x" * (12_288 - len(text.encode()))
    assert len(text.encode()) == 12_288
    m.elems.add().text.text = text
    return [("text", m)]


# ------------------------------------------------------------------------------------------------


def fixture_names():
    """The valid fixtures of the corpus, and those left out with the reason.

    Left out: cases with unknown fields (their JSON cannot carry them, so the binary and JSON records would
    not be the same message; protobuf-c also refuses unknown groups) and FIXTURES_EXCLUDED."""
    cases = json.loads((FIXTURES_VALID.parent / "manifest.json").read_text())["cases"]
    unknown = {c["name"] for c in cases if c.get("kind") == "valid" and c.get("has_unknown_fields")}
    names, excluded = [], {}
    for name in sorted(p.stem for p in FIXTURES_VALID.glob("*.binpb")):
        if name in unknown:
            excluded[name] = "has unknown fields"
        elif name in FIXTURES_EXCLUDED:
            excluded[name] = FIXTURES_EXCLUDED[name]
        else:
            names.append(name)
    return names, excluded


def frame(records):
    return b"".join(struct.pack("<I", len(r)) + r for r in records)


def corpus_entry(name, binaries, jsons, kinds, messages, out):
    bin_blob, json_blob = frame(binaries), frame(jsons)
    (out / f"{name}.msgs").write_bytes(bin_blob)
    (out / f"{name}.json.msgs").write_bytes(json_blob)
    entry = {
        "messages": len(binaries),
        "binary_bytes": sum(map(len, binaries)),
        "json_bytes": sum(map(len, jsons)),
        "binary_sha256": hashlib.sha256(bin_blob).hexdigest(),
        "json_sha256": hashlib.sha256(json_blob).hexdigest(),
    }
    entry["binary_bytes_per_message"] = round(entry["binary_bytes"] / len(binaries), 1)
    entry["json_bytes_per_message"] = round(entry["json_bytes"] / len(jsons), 1)
    if messages is not None:
        strings = blobs = 0
        per_kind = {}
        for kind, msg, data in zip(kinds, messages, binaries):
            s, b = heap_counts(msg)
            strings += s
            blobs += b
            k = per_kind.setdefault(kind, {"messages": 0, "binary_bytes": 0, "non_inline_strings": 0,
                                           "non_empty_bytes": 0})
            k["messages"] += 1
            k["binary_bytes"] += len(data)
            k["non_inline_strings"] += s
            k["non_empty_bytes"] += b
        entry["non_inline_strings"] = strings
        entry["non_empty_bytes"] = blobs
        # Issue 7: mallocs per decoded message <= its non-inline strings + 2. A non-empty bytes value is a
        # [UInt8] with its own heap buffer, so it counts like a non-inline string.
        entry["decode_malloc_bound"] = strings + blobs + 2 * len(binaries)
        entry["kinds"] = per_kind
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=HERE / "out", help="output directory (default: %(default)s)")
    ap.add_argument("--stats", action="store_true", help="print per-kind statistics")
    ap.add_argument("--write-checksums", action="store_true",
                    help="record the synthetic corpora's SHA-256 in checksums.txt (after a deliberate change)")
    args = ap.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)

    manifest = {"version": 1, "seed": SEED, "swift_small_string_max": SWIFT_SMALL_STRING_MAX, "corpora": {}}
    makers = {"chat": make_chat, "random": make_random, "merger300": make_merger300, "text12k": make_text12k}
    for name in SYNTHETIC:
        rng = random.Random(f"{SEED}/{name}")
        items = makers[name](rng)
        kinds = [k for k, _ in items]
        messages = [m for _, m in items]
        binaries = [canonical_binary(m) for m in messages]
        jsons = [canonical_json(m) for m in messages]
        manifest["corpora"][name] = corpus_entry(name, binaries, jsons, kinds, messages, out)
        if name == "chat":
            # One corpus per kind as well, for the per-kind malloc thresholds (README "Benchmarks").
            for kind in CHAT_KINDS:
                idx = [i for i, k in enumerate(kinds) if k == kind]
                part = f"chat-{kind}"
                manifest["corpora"][part] = corpus_entry(
                    part, [binaries[i] for i in idx], [jsons[i] for i in idx], [kind] * len(idx),
                    [messages[i] for i in idx], out)
                manifest["corpora"][part]["part_of"] = "chat"

    names, excluded = fixture_names()
    binaries = [(FIXTURES_VALID / f"{n}.binpb").read_bytes() for n in names]
    jsons = [(FIXTURES_VALID / f"{n}.json").read_bytes() for n in names]
    messages = [Message.FromString(b) for b in binaries]
    manifest["corpora"]["fixtures"] = corpus_entry("fixtures", binaries, jsons, ["fixture"] * len(names),
                                                   messages, out)
    manifest["corpora"]["fixtures"]["names"] = names
    manifest["corpora"]["fixtures"]["excluded"] = excluded
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")

    lines = [f"{manifest['corpora'][n][k]}  {n}{suffix}"
             for n in SYNTHETIC for k, suffix in (("binary_sha256", ".msgs"), ("json_sha256", ".json.msgs"))]
    if args.write_checksums:
        CHECKSUMS.write_text("\n".join(lines) + "\n")
    elif CHECKSUMS.exists() and CHECKSUMS.read_text().split("\n")[:-1] != lines:
        print("generate.py: warning: the synthetic corpora differ from checksums.txt (a different protobuf"
              " or Python?); tables made from them are not comparable with the committed ones", file=sys.stderr)

    for name, c in manifest["corpora"].items():
        if "part_of" in c:
            continue
        print(f"{name:10} {c['messages']:5} messages  {c['binary_bytes']:9} B binary "
              f"({c['binary_bytes_per_message']} B/msg)  {c['json_bytes']:9} B JSON")
        if args.stats and "kinds" in c:
            for kind, k in c["kinds"].items():
                print(f"    {kind:11} {k['messages']:5} msgs  {k['binary_bytes'] / k['messages']:7.1f} B/msg  "
                      f"{k['non_inline_strings'] / k['messages']:.2f} long strings/msg  "
                      f"{k['non_empty_bytes'] / k['messages']:.2f} bytes/msg")


if __name__ == "__main__":
    main()
