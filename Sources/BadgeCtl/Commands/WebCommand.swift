/// `badgectl web link | token | tokens [revoke <id>]`: the tokens of badged-web, the web view
/// (docs/WEB.md, "Tokens"). They live in the tokens file `[web] tokens_file` names, which
/// badged-web re-reads when it changes, so nothing here talks to a daemon. Hashing and the QR
/// code need GnuTLS and libqrencode: the work runs in badgectl-session (`WebTokens`).
package struct WebCommand: Subcommand {
  static let spec = CommandSpec(
    name: "web", abstract: "Link browsers to badged-web; list or revoke tokens.",
    discussion: """
      'link' writes a one-time code and prints the URL that redeems it (public_url in [web],
      else the first listen address) and a QR code of it: opened in a browser within 10
      minutes, the code becomes a long-lived token kept in a cookie. 'token' prints a new
      token for scripts (Authorization: Bearer <token>). --read-only makes a token that can see
      counts but not change them; --name says whose it is. 'tokens' lists the tokens (ID,
      ACCESS, CREATED, NAME); 'tokens revoke <id>' removes one, and badged-web refuses it from
      its next request on. The tokens file is [web] tokens_file of the config file (--config),
      by default $XDG_STATE_HOME/badged/web-tokens. Exits 78 for a config badged-web would
      refuse, 1 for a token that does not exist or a file that cannot be written.
      """,
    usage: "link | token | tokens [revoke <id>] [--read-only] [--name <text>]",
    arguments: [
      CommandSpec.Argument(
        name: "link|token|tokens", kind: .word, help: "What to do: link a browser, print a token, list tokens."),
      CommandSpec.Argument(name: "revoke", kind: .word, help: "After tokens: remove a token."),
      CommandSpec.Argument(name: "<id>", kind: .word, help: "The token's id, as 'tokens' lists it."),
    ],
    options: [readOnlyFlag, nameOption, configOption], positionals: 1...3)

  static let readOnlyFlag = Flag("--read-only", help: "The token sees counts but cannot change them.")
  static let nameOption = ValueOption<String>(
    "--name", value: "text", .text, help: "Whose the token is, as 'tokens' lists it. (default: browser or script)")
  static let configOption = ValueOption<String>(
    "--config", value: "file", .text, help: "The config file. (default: $XDG_CONFIG_HOME/badged/badged.conf)")

  /// What to do.
  package enum Action: Equatable, Sendable {
    case link
    case token
    case list
    case revoke(id: String)
  }

  package let action: Action
  package let readOnly: Bool
  package let name: String
  /// `--config`; `nil`: the default file, which may be missing.
  package let configFile: String?

  private enum Word: String {
    case link, token, tokens
  }

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    let word = try arguments.required(.word)
    switch Word(rawValue: word) {
    case .link?: action = .link
    case .token?: action = .token
    case .tokens?:
      if arguments.take("revoke") {
        guard let id = try arguments.next(.word) else {
          throw arguments.usageError("Missing expected argument '<id>' after 'tokens revoke'")
        }
        action = .revoke(id: id)
      } else {
        action = .list
      }
    case nil:
      throw arguments.usageError("Unknown argument '\(word)'; expected link, token or tokens")
    }
    readOnly = arguments.flag(Self.readOnlyFlag)
    let name = try arguments.value(Self.nameOption)
    configFile = try arguments.value(Self.configOption)
    if action != .link && action != .token && (readOnly || name != nil) {
      throw arguments.usageError("--read-only and --name go with 'link' and 'token' only")
    }
    self.name = name ?? (action == .link ? "browser" : "script")
    if configFile?.isEmpty == true { throw arguments.usageError("--config needs a file") }
    if name?.isEmpty == true { throw arguments.usageError("--name needs a text") }
  }

  func run(socket: String) throws(CtlError) {
    try SessionProgram.run(.web(self), socket: socket)
  }
}
