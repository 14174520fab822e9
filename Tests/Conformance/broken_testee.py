#!/usr/bin/env python3
"""A deliberately broken conformance testee, for the suite's self-tests (Tests/IMWireConformanceTests/ConformanceSelfTests.swift).

It relays every request to a working testee (the command after `--`, e.g. `imwire testee`) and passes
its answers back, except that it misbehaves on the request whose test name is `--at NAME` (`--at '*'`:
on every request):

  --mode crash       write a line to stderr, then die from SIGSEGV
  --mode exit        exit with status 3 before answering
  --mode hang        never answer (sleep until killed)
  --mode garbage     answer with a frame whose bytes are not a ConformanceResponse
  --mode huge-length answer with a length prefix of 0xfffffff0 bytes
  --mode truncate    write half of the real answer's frame, then exit
  --mode trailing    write the real answer, then 3 stray bytes
  --mode non-utf8    answer with a well-framed parse_error whose text is not UTF-8 (a healthy
                     testee that quotes raw input in its error, as C++'s JSON parser does)

    broken_testee.py --mode crash --at Required.BinaryInput.elem_text_all_fields.BinaryOutput -- imwire testee

Standard library only: the test name is read straight from the request's wire bytes (field 1).
"""
import argparse
import os
import signal
import struct
import subprocess
import sys
import time


def read_exactly(stream, count):
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def test_name(frame):
    """Field 1 (test_name, a string) of a ConformanceRequest, or "" if it is not first."""
    if not frame or frame[0] != 0x0A:
        return ""
    length, shift, position = 0, 0, 1
    while position < len(frame):
        byte = frame[position]
        position += 1
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    return frame[position:position + length].decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True,
                        choices=["crash", "exit", "hang", "garbage", "huge-length", "truncate", "trailing",
                                 "non-utf8"])
    parser.add_argument("--at", required=True, help="test name to misbehave on, or * for every request")
    parser.add_argument("inner", nargs=argparse.REMAINDER, help="-- the working testee's command")
    args = parser.parse_args()
    inner = args.inner[1:] if args.inner[:1] == ["--"] else args.inner
    testee = subprocess.Popen(inner, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer

    while True:
        prefix = read_exactly(stdin, 4)
        if len(prefix) < 4:
            testee.stdin.close()
            return testee.wait()
        frame = read_exactly(stdin, struct.unpack("<I", prefix)[0])
        broken = args.at == "*" or test_name(frame) == args.at

        if broken and args.mode == "crash":
            sys.stderr.write("broken_testee: crashing on purpose\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        if broken and args.mode == "exit":
            sys.stderr.write("broken_testee: exiting on purpose\n")
            sys.stderr.flush()
            os._exit(3)
        if broken and args.mode == "hang":
            while True:
                time.sleep(60)
        if broken and args.mode == "garbage":
            stdout.write(struct.pack("<I", 3) + b"\xff\xff\xff")
            stdout.flush()
            continue
        if broken and args.mode == "non-utf8":
            # ConformanceResponse { parse_error (1): "bad input: \xff\xfe" }
            text = b"bad input: \xff\xfe"
            body = bytes([0x0A, len(text)]) + text
            stdout.write(struct.pack("<I", len(body)) + body)
            stdout.flush()
            continue
        if broken and args.mode == "huge-length":
            stdout.write(struct.pack("<I", 0xFFFFFFF0))
            stdout.flush()
            continue

        testee.stdin.write(prefix + frame)
        testee.stdin.flush()
        answer_prefix = read_exactly(testee.stdout, 4)
        answer = answer_prefix + read_exactly(testee.stdout, struct.unpack("<I", answer_prefix)[0])
        if broken and args.mode == "truncate":
            stdout.write(answer[:len(answer) // 2])
            stdout.flush()
            os._exit(4)
        stdout.write(answer + (b"\x01\x02\x03" if broken and args.mode == "trailing" else b""))
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
