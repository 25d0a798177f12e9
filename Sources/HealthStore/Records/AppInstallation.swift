public import Foundation
import GRDB

/// One installation of an app: its id and when that installation was made (`apps.installed_us`).
/// An in-place update keeps it (`AppRepository.install` never rewrites `installed_us`); removing
/// the app and installing the same id again makes a new one. A decision the user makes for a
/// request is bound to the installation that asked (`ObjectGrantRepository.decide`), so a new
/// installation under the same id never receives the answer given to the old one.
public struct AppInstallation: Hashable, Sendable {
    public let appID: String
    public let installedMicroseconds: Int64

    public init(appID: String, installedMicroseconds: Int64) {
        self.appID = appID
        self.installedMicroseconds = installedMicroseconds
    }
}

extension AppRepository {
    /// The current installation of `id`, or nil when no such app is installed.
    public func installation(id: String) throws -> AppInstallation? {
        try writer.read { db in try Self.installation(db, id: id) }
    }

    /// The same, inside a transaction the caller holds (to check it where it writes).
    static func installation(_ db: Database, id: String) throws -> AppInstallation? {
        try Int64.fetchOne(db, sql: "SELECT installed_us FROM apps WHERE id = ?", arguments: [id])
            .map { AppInstallation(appID: id, installedMicroseconds: $0) }
    }
}
