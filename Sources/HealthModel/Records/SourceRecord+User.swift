extension SourceRecord {
    /// The user's own source: characteristics and the entries typed with `healthctl add`, named
    /// "Health" as entries typed into Apple's Health app are — the name apps see. '@' cannot
    /// appear in an app id (`AppIDRule`), so no app owns it; no app may take its name either
    /// (`DisplayNameRule`), and healthctl shows it as the user's (`SourceLabel`).
    public static let user = SourceRecord(bundleIdentifier: "@user", name: "Health")
}
