import Glibc

/// `badged-web` from start to exit.
public enum WebProgram {
  public static func main(_ arguments: [String]) -> CInt {
    70
  }
}
