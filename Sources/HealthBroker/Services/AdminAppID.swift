import HealthModel

/// The app id an admin request names when it gives an app something — grants, network access,
/// direct connections, a storage bound, a launch binding: held to `AppIDRule`, the manifest's id
/// rule, before the store is asked.
///
/// The store finds apps by bytes, so an id outside the rule finds no app installed today; but
/// healthd's own tables (connections, prompts, background schedule) are Swift dictionaries, where
/// `com.example.\u{212A}eep` and `com.example.Keep` are one key. Refusing such an id here keeps it
/// from reaching them. Removal and the read-only listings do not check: an app an older version
/// installed under such an id must stay visible and removable (`healthctl apps remove`); it can
/// no longer serve as an app (`InstalledManifestCheck`).
enum AdminAppID {
    static func checked(_ id: String) throws(HKError) -> String {
        guard AppIDRule.isValid(id) else {
            throw HKError(.errorInvalidArgument, "'\(AppIDRule.spelled(id))' is not an app id: an app \(AppIDRule.message)")
        }
        return id
    }
}
