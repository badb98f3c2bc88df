/// The notmuch config of a test's own notmuch set-up (SOURCES.md, "notmuch in a folder of its
/// own"): the database in the Maildir `mail`, new mail tagged `unread` and `inbox`, `deleted`
/// and `spam` left out of searches and counts, and tags kept in step with Maildir flags (`-unread`
/// renames a file to carry `S`). The tests run the real notmuch with `NOTMUCH_CONFIG` naming it.
public enum NotmuchConfig {
  public static func text(mail: String) -> String {
    """
    [database]
    path=\(mail)
    [user]
    name=Test
    primary_email=test@example.org
    [new]
    tags=unread;inbox;
    ignore=
    [search]
    exclude_tags=deleted;spam;
    [maildir]
    synchronize_flags=true

    """
  }
}
