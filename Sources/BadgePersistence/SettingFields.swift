import BadgeCore

/// A channel record's flags and fixed fields as far as its settings go: none (`NoSettings`, most
/// channels) or an override's (`SettingFields`). The record's writer is generic over it, so the
/// common case pays nothing for the other.
protocol ChannelFields {
  /// The room the fields' text takes beyond a record's fixed room.
  var textLength: Int { get }
  /// Writes the flags (with `unseen`'s bit when it is given), the fixed fields with `unseen`
  /// among them, and the settings' extensions.
  mutating func write(unseen: Int?, to w: inout ByteWriter)
}

/// A channel without settings of its own: `unseen` is the only fixed field there may be.
struct NoSettings: ChannelFields {
  var textLength: Int { 0 }

  func write(unseen: Int?, to w: inout ByteWriter) {
    guard let unseen else { return w.write(UInt8(0)) }
    w.write(RecordCodec.hasUnseen)
    w.write(littleEndian: UInt32(unseen))
  }
}

/// An override's settings as a channel record keeps them, read in two walks of
/// `SettingKey.visitAll`: the bits they set in the flags byte and the room their text takes
/// (`init`), then the fixed fields and the tagged extensions, written (`write`).
///
/// A visitor rather than a list of the settings set: `visitAll` is inlined with it, so each
/// field of the override is read where it is kept, as the journal does with every change of a
/// channel that has settings. The settings come in `SettingKey.allCases` order, which puts the
/// fixed ones first and in the order of their bits (RecordTests holds it): `unseen` (bit 5) goes
/// before the first of a higher bit or the first extension, and the extensions follow the fixed
/// fields.
struct SettingFields: SettingVisitor, ChannelFields {
  private enum Walk {
    case measure, write
  }

  let override: SettingsOverride
  /// The flags bits of the settings set.
  private(set) var flags: UInt8 = 0
  /// The bytes of the text settings (an `export` id), each cut as a record cuts it: what a
  /// record needs beyond its fixed room.
  private(set) var textLength = 0
  private var walk = Walk.measure
  /// `unseen` while it waits for its place among the fixed fields.
  private var unseen: Int?
  private var writer: ByteWriter?

  init(_ override: SettingsOverride) {
    self.override = override
    SettingKey.visitAll(&self)
  }

  mutating func write(unseen: Int?, to w: inout ByteWriter) {
    w.write(flags | (unseen == nil ? 0 : RecordCodec.hasUnseen))
    self.unseen = unseen
    writer = w
    walk = .write
    SettingKey.visitAll(&self)
    writeUnseen()
    w = writer!
  }

  /// `unseen`, if it is still to be written.
  private mutating func writeUnseen() {
    if let unseen {
      writer!.write(littleEndian: UInt32(unseen))
      self.unseen = nil
    }
  }

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    guard let value = override[keyPath: overridden] else { return }
    switch (walk, key.record) {
    case (.measure, .fixed(let bit)):
      flags |= 1 << bit
    case (.measure, .inFlags(let bit, let valueBit)):
      flags |= 1 << bit | (value.plainSettingValue == .yesNo(true) ? 1 << valueBit : 0)
    case (.measure, .tagged):
      if case .text(let text) = value.plainSettingValue { textLength += min(text.utf8.count, Int(UInt16.max)) }
    case (.write, .fixed(let bit)):
      if bit > RecordCodec.unseenBit { writeUnseen() }
      RecordCodec.writeValue(value.plainSettingValue, to: &writer!)
    case (.write, .tagged(let tag)):
      writeUnseen()
      writer!.write(tag)
      RecordCodec.writeValue(value.plainSettingValue, to: &writer!)
    default:
      break
    }
  }
}
