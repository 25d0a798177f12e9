public import HealthModel

extension SourceRecord {
    /// How the bundle identifier of a source made by `healthctl import` begins
    /// (`@import/<origin>/<name>`, `ImportService`): no app manifest's id can begin with "@".
    public static let importedPrefix = "@import/"

    /// Whether this is a source `healthctl import` made: only an import writes to one, and only
    /// one may hold an import's dated sync keys (`SyncLookup`).
    public var isImported: Bool { bundleIdentifier.hasPrefix(Self.importedPrefix) }
}
