import BadgeBus
import BadgeCore
import Testing

/// Desktop ids and app URIs to channel names, by the one documented rule.
@Suite struct AppChannelTests {
  @Test(arguments: [
    ("application://org.telegram.desktop.desktop", "org.telegram.desktop"),
    ("application://firefox.desktop", "firefox"),
    ("org.gnome.Geary.desktop", "org.gnome.Geary"),
    ("application://code", "code"),
    ("application://.desktop", ""),
    ("", ""),
  ])
  func desktopIDsComeFromAppURIs(_ uri: String, _ id: String) {
    #expect(AppChannel.desktopID(fromAppURI: uri) == id)
  }

  @Test func launcherChannelsArePrefixedWithApp() {
    #expect(
      AppChannel.channel(prefix: AppChannel.launcherPrefix, id: "org.telegram.desktop")?.description
        == "app:org.telegram.desktop")
    #expect(AppChannel.channel(prefix: AppChannel.notificationPrefix, id: "firefox")?.description == "notify:firefox")
  }

  @Test func bytesOutsideTheCharsetBecomeUnderscores() {
    #expect(AppChannel.sanitized("my app+1:x~é") == "my_app_1_x___")
    #expect(AppChannel.channel(prefix: "app:", id: "Ünï")?.description == "app:__n__", "per byte of UTF-8")
  }

  @Test func longIDsAreCutToTheNameLimit() {
    let id = String(repeating: "a", count: 100)
    let channel = AppChannel.channel(prefix: "app:", id: id)
    #expect(channel?.description == "app:" + String(repeating: "a", count: 60))
    #expect(channel?.count == ChannelName.maxLength)
  }

  @Test func anEmptyIDHasNoChannel() {
    #expect(AppChannel.channel(prefix: "app:", id: "") == nil)
  }

  @Test func bridgedChannelsGiveTheirDesktopIDBack() {
    #expect(AppChannel.desktopID(of: ChannelName("app:org.telegram.desktop")!) == "org.telegram.desktop")
    #expect(AppChannel.desktopID(of: ChannelName("notify:firefox")!) == "firefox")
    #expect(AppChannel.desktopID(of: ChannelName("mail")!) == nil)
    #expect(AppChannel.desktopID(of: ChannelName("app:")!) == nil)
  }
}
