#!/usr/bin/env python3
"""A small HTTP file server for the DarknetModels tests: Range, If-Range, ETag, Last-Modified,
conditional GETs (304), and faults injected per path through POST /_control.

    python3 model_server.py --root DIR [--lifetime 300]

Listens on 127.0.0.1 only, on a free port it prints as "PORT <n>" on stdout. Exits by itself
after --lifetime seconds, whatever happens to the test that started it.

POST /_control with a JSON object:
  {"reset": true}                               forget every fault and the request log
  {"path": "/x", "cut_after": N, "times": 1}    send N body bytes, then drop the connection
  {"path": "/x", "stall_after": N, "times": 1}  send N body bytes, then stall (bounded: 120 s)
  {"path": "/x", "status": 500, "times": 1}     answer with that status
  {"path": "/x", "no_range": true}              ignore Range (always 200, the whole file)
  {"path": "/x", "no_validators": true}         send no ETag or Last-Modified
  {"path": "/x", "rate": B}                     send at most B bytes per second
"times" (default: every request) counts the requests the fault applies to.
GET /_log returns the requests so far as a JSON list.
"""
import argparse
import email.utils
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STALL_LIMIT = 120
CHUNK = 64 * 1024

lock = threading.Lock()
faults = {}
log = []


def take_fault(path):
    """The fault for this request, counting down its "times"."""
    with lock:
        fault = faults.get(path)
        if fault is None:
            return {}
        if "times" in fault:
            if fault["times"] <= 0:
                return {}
            fault["times"] -= 1
        return dict(fault)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # one request per connection: a cut is a closed socket
    root = "."

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        with lock:
            if body.get("reset"):
                faults.clear()
                log.clear()
            elif "path" in body:
                faults[body["path"]] = {k: v for k, v in body.items() if k != "path"}
        self.reply(200, b"ok\n")

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/_log":
            with lock:
                body = json.dumps(log).encode()
            return self.reply(200, body, [("Content-Type", "application/json")])
        fault = take_fault(self.path)
        self.entry = {"path": self.path, "range": self.headers.get("Range"),
                      "if_range": self.headers.get("If-Range"),
                      "if_none_match": self.headers.get("If-None-Match"),
                      "if_modified_since": self.headers.get("If-Modified-Since")}
        self.serve(fault)

    def send_response(self, code, message=None):
        # A file request is logged with its status before any byte of the answer goes out, so a
        # client that has its answer always finds the request in /_log.
        entry = getattr(self, "entry", None)
        if entry is not None:
            entry["status"] = code
            with lock:
                log.append(entry)
            self.entry = None
        super().send_response(code, message)

    def serve(self, fault):
        file = os.path.join(self.root, self.path.lstrip("/"))
        if "status" in fault:
            self.reply(fault["status"], b"injected\n")
            return fault["status"]
        if not os.path.isfile(file):
            self.reply(404, b"not found\n")
            return 404
        stat = os.stat(file)
        etag = '"%x-%x"' % (stat.st_mtime_ns, stat.st_size)
        modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        validators = [] if fault.get("no_validators") else [("ETag", etag), ("Last-Modified", modified)]
        if not fault.get("no_validators"):
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            if (inm is not None and inm == etag) or (inm is None and ims is not None and ims == modified):
                self.send_response(304)
                for name, value in validators:
                    self.send_header(name, value)
                self.end_headers()
                return 304
        size = stat.st_size
        start = 0
        status = 200
        wanted = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        range_ok = wanted and not fault.get("no_range") and (if_range is None or if_range in (etag, modified))
        if range_ok and wanted.startswith("bytes=") and wanted[6:].endswith("-"):
            start = int(wanted[6:-1])
            if start >= size:
                self.reply(416, b"range not satisfiable\n", [("Content-Range", "bytes */%d" % size)])
                return 416
            status = 206
        self.send_response(status)
        for name, value in validators:
            self.send_header(name, value)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(size - start))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))
        self.end_headers()
        self.send_body(file, start, fault)
        return status

    def send_body(self, file, start, fault):
        limit = fault.get("cut_after", fault.get("stall_after"))
        rate = fault.get("rate")
        sent = 0
        with open(file, "rb") as f:
            f.seek(start)
            while True:
                want = CHUNK if limit is None else min(CHUNK, limit - sent)
                block = f.read(want) if want > 0 else b""
                if not block:
                    break
                try:
                    self.wfile.write(block)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    return
                sent += len(block)
                if rate:
                    time.sleep(len(block) / rate)
        if "stall_after" in fault:
            time.sleep(min(fault.get("stall_seconds", STALL_LIMIT), STALL_LIMIT))
        if limit is not None:
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--lifetime", type=float, default=300)
    args = parser.parse_args()
    Handler.root = args.root
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    timer = threading.Timer(args.lifetime, lambda: os._exit(3))
    timer.daemon = True
    timer.start()
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
