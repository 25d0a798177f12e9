import HealthModel

/// The source name and version an export writes for a stored source. Imported data goes back
/// out under the name it came in with (`@import/Apple Health/Health` → "Health"), so exporting
/// and importing again lands in the same source; an app is written by its display name; the
/// user's own entries (`@user`) as "Health", like samples typed into Apple's Health app.
enum ExportSourceName {
    static let importPrefix = "@import/"

    static func of(_ source: SourceRecord?) -> (name: String, version: String?) {
        guard let source else { return ("Health", nil) }
        if source.bundleIdentifier.hasPrefix(importPrefix) {
            // `@import/<origin>/<name>`: the origin holds no '/', the name may.
            let rest = source.bundleIdentifier.dropFirst(importPrefix.count)
            guard let slash = rest.firstIndex(of: "/") else { return (source.name, source.version) }
            return (String(rest[rest.index(after: slash)...]), source.version)
        }
        if source.bundleIdentifier.hasPrefix("@") { return ("Health", source.version) }
        return (source.name.isEmpty ? source.bundleIdentifier : source.name, source.version)
    }
}
