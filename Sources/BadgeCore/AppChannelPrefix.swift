/// The channel prefixes of the bus bridges (`app:`, `notify:`), in the model so that config
/// globs, the bridges and the channel pools agree.
public enum AppChannelPrefix {
  public static let launcher = "app:"
  public static let notification = "notify:"
}
