import BadgeWeb
import Testing

@Suite struct HTTPMessageTests {
  @Test func cookiesAreFoundByNameAmongOthers() {
    let request = HTTPRequest(
      method: "GET", path: "/", headers: [("cookie", "a=1; badged_token=xyz; b=2"), ("cookie", "c=3")])
    #expect(request.cookie("badged_token") == "xyz")
    #expect(request.cookie("c") == "3")
    #expect(request.cookie("badged") == nil)
  }

  @Test func headersAreFoundWhateverTheirCase() {
    let request = HTTPRequest(method: "GET", path: "/", headers: [("origin", "http://127.0.0.1:8787")])
    #expect(request.header("Origin") == "http://127.0.0.1:8787")
    #expect(HTTPResponse.text(200, "x").header("content-type") == "text/plain; charset=utf-8")
  }
}
