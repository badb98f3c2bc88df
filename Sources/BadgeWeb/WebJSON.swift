import BadgeCore
import BadgeProtocol
import BadgeRender

/// The JSON of badged-web's stream and API (docs/WEB.md), written by hand with `JSONObject`:
/// the page and scripts read these shapes, so each is spelled here once.
public enum WebJSON {
  /// `<channel>`: a channel as the daemon's last `STATE`/`EVENT` line gave it. The fields are
  /// the protocol's (`pulse` the milliseconds left when the line was sent, `dnd` `off` or how
  /// do-not-disturb shows it, `step` what a stepper moves it by); `total` when the daemon sent
  /// it; for a channel mirrored from another machine `owner`, `stale` and `pending`; for one a
  /// source counts `source` and `stale`.
  public static func channel(_ snapshot: ChannelSnapshot) -> JSONObject {
    var object = JSONObject()
    object.add("name", snapshot.channel)
    object.add("count", snapshot.count)
    object.add("label", snapshot.label)
    object.add("dot", snapshot.dot)
    object.add("pulse", snapshot.pulseMs)
    object.add("muted", snapshot.muted)
    object.add("seq", snapshot.seq)
    object.add("badge", snapshot.badge.rawValue)
    object.add("dnd", snapshot.silenced?.rawValue ?? "off")
    object.add("unseen", snapshot.unseen)
    object.add("step", snapshot.step)
    if let total = snapshot.total { object.add("total", total) }
    if let mirror = snapshot.mirror {
      object.add("owner", mirror.owner)
      object.add("stale", mirror.stale)
      if mirror.pending { object.add("pending", true) }
    }
    if let source = snapshot.source {
      object.add("source", source.name)
      object.add("stale", source.stale)
    }
    return object
  }

  /// `{"on":true,"left":1800000}`: do-not-disturb, and the milliseconds left of a timed one.
  public static func dnd(_ dnd: DNDSnapshot) -> JSONObject {
    var object = JSONObject()
    object.add("on", dnd.isOn)
    object.add("left", dnd.leftMs)
    return object
  }

  /// `{"seq":<base>,"dnd":{…},"channels":[<channel>…]}`: the snapshot event's data and
  /// `GET /api/channels`' body.
  public static func snapshot(seq: UInt64, dnd: DNDSnapshot, channels: [ChannelSnapshot]) -> String {
    var object = JSONObject()
    object.add("seq", seq)
    object.add("dnd", object: WebJSON.dnd(dnd))
    object.add("channels", objects: channels.map(channel))
    return object.text
  }

  /// `{"error":"<code>","message":"…"}`: every refusal of the API, `code` the protocol's
  /// error code where the daemon gave one.
  public static func error(_ code: String, _ message: String? = nil) -> String {
    var object = JSONObject()
    object.add("error", code)
    if let message { object.add("message", message) }
    return object.text
  }

  /// `{"reason":"gap"}`: the data of a `reset` event.
  public static func reset(reason: String) -> String {
    var object = JSONObject()
    object.add("reason", reason)
    return object.text
  }

  /// `{"since":<unix ms>}`: the data of an `offline` event.
  public static func offline(since unixMs: Int64) -> String {
    var object = JSONObject()
    object.add("since", Int(unixMs))
    return object.text
  }
}
