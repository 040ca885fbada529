import KioskStore

/// Each user's last opened headline (Home's), as the broadcaster knows it: read from the store
/// the first time it is asked for, then kept. A plain value the broadcaster holds, so that
/// remembering a headline and telling the pages about it happen in one step.
struct OpenedHeadlines {
    /// nil inside: the user has opened nothing yet (known); no entry: not read yet.
    private var opened: [UserID: OpenedHeadline?] = [:]

    /// What is known of `user`'s: nil when not read from the store yet, `.some(nil)` when they
    /// opened nothing.
    func known(for user: UserID) -> OpenedHeadline?? {
        opened[user]
    }

    /// The last headline `user` opened, nil when none or not read yet.
    func last(for user: UserID) -> OpenedHeadline? {
        opened[user] ?? nil
    }

    /// Remembers `headline` (nil: none) as `user`'s last.
    mutating func remember(_ headline: OpenedHeadline?, user: UserID) {
        opened[user] = .some(headline)
    }
}
