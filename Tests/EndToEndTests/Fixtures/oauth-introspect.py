"""An OAuth2 token introspection endpoint (RFC 7662) for dovecot's `oauth2` passdb in the tests.

    oauth-introspect.py TOKENS

Listens on 127.0.0.1 and a free port, which it prints on a line of its own once it listens.
Each POST's `token=` is looked up in the file TOKENS, read anew for every request (lines
`<token> <user>`), so a test can accept a token, then let it expire, while the server runs:
a known token is `{"active": true, "username": <user>}`, any other `{"active": false}`.
Each request is logged to standard error as `introspect <token> -> <user or refused>`.
"""
import http.server, json, sys, urllib.parse

TOKENS = sys.argv[1]


def accepted():
    with open(TOKENS) as f:
        return dict(line.split(None, 1) for line in f.read().splitlines() if line.strip())


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        token = urllib.parse.parse_qs(body).get("token", [""])[0]
        user = accepted().get(token)
        out = json.dumps({"active": True, "username": user.strip()} if user else {"active": False}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
        print("introspect", token, "->", user.strip() if user else "refused", file=sys.stderr, flush=True)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
