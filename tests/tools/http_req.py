#!/usr/bin/env python3
"""Raw HTTP for the tests against a real llama-server (test code only).

    http_req.py URL [METHOD [BODY [HEADER: VALUE]...]]
        prints the status on the first line, then the response headers
        (lower-cased names), a blank line and the body; exits 0 whatever
        the status, 1 when nothing answered.
    http_req.py --wait-health URL SECONDS
        polls URL/health every 5 ms until it answers 200 and prints each
        distinct answer in order, one a line ("refused", "503 <body>",
        "200 <body>"); exits 1 when no 200 came in time.
"""
import sys
import time
import urllib.error
import urllib.request


def request(url, method="GET", body=None, headers=()):
    data = body.encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for h in headers:
        name, _, value = h.partition(":")
        req.add_header(name.strip(), value.strip())
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.getheaders(), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.items(), e.read()


def wait_health(url, seconds):
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            status, _, body = request(url + "/health")
            line = "%d %s" % (status, body.decode("utf-8", "replace").strip())
        except OSError:
            status, line = 0, "refused"
        if not seen or seen[-1] != line:
            seen.append(line)
            print(line, flush=True)
        if status == 200:
            return 0
        time.sleep(0.005)
    return 1


def main(argv):
    if len(argv) == 4 and argv[1] == "--wait-health":
        return wait_health(argv[2], float(argv[3]))
    if len(argv) < 2:
        sys.exit(__doc__)
    method = argv[2] if len(argv) > 2 else "GET"
    body = argv[3] if len(argv) > 3 and argv[3] != "" else None
    try:
        status, headers, data = request(argv[1], method, body, argv[4:])
    except OSError as e:
        print("no answer: %s" % e)
        return 1
    out = sys.stdout.buffer
    out.write(b"%d\n" % status)
    for k, v in headers:
        out.write(("%s: %s\n" % (k.lower(), v)).encode())
    out.write(b"\n" + data + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
