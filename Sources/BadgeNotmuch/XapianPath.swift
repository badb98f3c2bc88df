import BadgePOSIX
import Glibc

/// Where a notmuch database keeps its Xapian folder: the folder whose changes say that a writer
/// committed (every commit of `notmuch new` or `notmuch tag` ends with a rename onto
/// `iamglass`, and a writer's lock is let go with a close of `flintlock`), so it is what
/// badged-sources watches instead of polling the revision.
public enum XapianPath {
  /// `<database>/.notmuch/xapian` when that exists (a database inside the mail root, notmuch's
  /// classic layout), else `<data home>/notmuch/<profile>/xapian` (the XDG layout of notmuch
  /// 0.32 and later: `$XDG_DATA_HOME`, `~/.local/share` by default; profile `default`).
  ///
  /// - Parameters:
  ///   - database: the database's folder (`NotmuchDatabase.path`).
  ///   - profile: the profile, `nil` for `$NOTMUCH_PROFILE` or `default`.
  ///   - environment: looks up a variable (the process's environment by default).
  ///   - isFolder: whether a path is a folder (the file system's answer by default).
  public static func folder(
    database: String, profile: String? = nil,
    environment: (String) -> String? = Environment.value,
    isFolder: (String) -> Bool = XapianPath.isFolder
  ) -> String {
    let classic = database + "/.notmuch/xapian"
    if isFolder(classic) { return classic }
    let dataHome = environment("XDG_DATA_HOME") ?? ((environment("HOME") ?? "") + "/.local/share")
    let name = profile ?? environment("NOTMUCH_PROFILE") ?? "default"
    return dataHome + "/notmuch/" + name + "/xapian"
  }

  /// Where the Xapian folder of a database not made yet will be: `folder`'s when that exists,
  /// else `<database>/.notmuch/xapian`, where `notmuch new` makes it for a database folder a
  /// config names (notmuch 0.37; NotmuchChangesTests pins it).
  public static func awaited(
    database: String, profile: String? = nil,
    environment: (String) -> String? = Environment.value,
    isFolder: (String) -> Bool = XapianPath.isFolder
  ) -> String {
    let found = folder(database: database, profile: profile, environment: environment, isFolder: isFolder)
    return isFolder(found) ? found : database + "/.notmuch/xapian"
  }

  /// Whether the Xapian folder `folder` holds a database: its version file (`iamglass`, or
  /// `iamchert` of the older backend) is written with the first commit, so a folder `notmuch
  /// new` is still making has none.
  public static func holdsDatabase(_ folder: String) -> Bool {
    ["iamglass", "iamchert"].contains { access(folder + "/" + $0, F_OK) == 0 }
  }

  /// Whether `path` is a folder (or a link to one).
  public static func isFolder(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
  }
}
