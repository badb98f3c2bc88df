/// The release both programs report (`badged --version`, `HELLO`, `badgectl --version`).
public enum BadgedVersion {
  public static let current = "0.1.0"
}
