/// A user's template for one channel's text, such as `{icon} {label}`.
///
/// `{{` and `}}` stand for literal braces; a lone `}` is taken literally too.
public struct Template: Sendable, Equatable {
  /// The names a template may use.
  public enum Placeholder: String, Sendable, CaseIterable {
    /// The channel's name.
    case channel
    /// The count as a number.
    case count
    /// The badge itself, styled and animated the way the format can.
    case label
    /// The icon of the channel's state (`RenderOptions.icons`).
    case icon
    /// The accessible text: "mail: 4 unread".
    case text
  }

  /// A run of literal text or a placeholder.
  enum Part: Sendable, Equatable {
    case literal(String)
    case placeholder(Placeholder)
  }

  /// The template as the user wrote it.
  public let source: String
  let parts: [Part]

  /// Parses `source`.
  ///
  /// - Throws: `TemplateError` for an unknown placeholder or a `{` that is never closed.
  public init(_ source: String) throws(TemplateError) {
    self.source = source
    var parts: [Part] = []
    var literal = ""
    var rest = Substring(source)
    while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
      literal += rest[..<brace]
      let next = rest.index(after: brace)
      if next < rest.endIndex, rest[next] == rest[brace] {  // "{{" or "}}"
        literal.append(rest[brace])
        rest = rest[rest.index(after: next)...]
        continue
      }
      if rest[brace] == "}" {
        literal.append("}")
        rest = rest[next...]
        continue
      }
      let position = source.distance(from: source.startIndex, to: brace)
      guard let close = rest[next...].firstIndex(of: "}") else {
        throw TemplateError(template: source, position: position, reason: .unclosedBrace)
      }
      let name = String(rest[next..<close])
      guard let placeholder = Placeholder(rawValue: name) else {
        throw TemplateError(template: source, position: position, reason: .unknownPlaceholder(name))
      }
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
      parts.append(.placeholder(placeholder))
      rest = rest[rest.index(after: close)...]
    }
    literal += rest
    if !literal.isEmpty { parts.append(.literal(literal)) }
    self.parts = parts
  }

  private init(placeholders: [Part], source: String) {
    self.source = source
    self.parts = placeholders
  }

  /// `{label}`: the default for one channel.
  public static let label = Template(placeholders: [.placeholder(.label)], source: "{label}")
  /// `{channel} {label}`: the default for several channels, and always in a terminal.
  public static let channelAndLabel = Template(
    placeholders: [.placeholder(.channel), .literal(" "), .placeholder(.label)],
    source: "{channel} {label}")
}

/// Why a template was refused, worded for the CLI's "Error: …" line.
public struct TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// `{name}` with a name that is not a placeholder.
    case unknownPlaceholder(String)
    /// A `{` with no `}` after it.
    case unclosedBrace
  }

  public var template: String
  /// The character offset of the offending `{`.
  public var position: Int
  public var reason: Reason

  public var description: String {
    switch reason {
    case .unknownPlaceholder(let name):
      let known = Template.Placeholder.allCases.map { "{\($0.rawValue)}" }
      return "Unknown placeholder '{\(name)}' in template '\(template)'; expected "
        + known.dropLast().joined(separator: ", ") + " or " + known.last!
    case .unclosedBrace:
      return "Unclosed '{' at position \(position) in template '\(template)'; write '{{' for a literal brace"
    }
  }
}
