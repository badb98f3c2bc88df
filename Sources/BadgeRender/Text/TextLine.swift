/// How one text format writes a channel: how it escapes plain text and how it draws the badge.
protocol TextDialect {
  /// `text` made safe to appear literally in the format.
  func escape(_ text: String) -> String
  /// The badge of `frame`, styled the way the format can; "" when the badge is hidden.
  func badge(_ frame: BadgeFrame) -> String
}

/// One line of text for several channels: each channel through the template, joined by the
/// separator.
enum TextLine {
  /// - Parameters:
  ///   - keepsHidden: Whether a channel with nothing drawn keeps its text. Bars leave it out,
  ///     so that a module with no unread items is empty and the bar hides it; a terminal keeps
  ///     the channel's name in view.
  ///   - template: Overrides the options' template (i3blocks' `short_text` uses `{label}`).
  ///   - wrapping: What each channel's text is put in (polybar's click area of one channel).
  static func compose(
    _ frames: [BadgeFrame], in dialect: some TextDialect, options: RenderOptions,
    keepsHidden: Bool = false, template: Template? = nil, wrapping: (BadgeFrame, String) -> String = { $1 }
  ) -> String {
    let template =
      template ?? options.template ?? (keepsHidden || frames.count > 1 ? .channelAndLabel : .label)
    return frames.filter { keepsHidden || !$0.isHidden }
      .map { wrapping($0, render(template, $0, in: dialect, icons: options.icons)) }
      .joined(separator: dialect.escape(options.separator))
  }

  /// One channel through `template`.
  static func render(
    _ template: Template, _ frame: BadgeFrame, in dialect: some TextDialect, icons: IconSet
  ) -> String {
    template.parts.map { part in
      switch part {
      case .literal(let text): return dialect.escape(text)
      case .placeholder(.label): return dialect.badge(frame)
      case .placeholder(.channel): return dialect.escape(frame.channel)
      case .placeholder(.count): return String(frame.count)
      case .placeholder(.icon): return dialect.escape(icons.icon(for: BadgeState(frame)))
      case .placeholder(.text): return dialect.escape(AccessibleText.describe(frame))
      }
    }.joined()
  }
}
