import Foundation
import HealthWire
import Synchronization

extension HKSource {
    /// The app's own source, as HealthKit's `HKSource.default()`: the bundle identifier and name
    /// healthd records on this app's saves, so `predicateForObjects(from: .default())` selects the
    /// app's own samples and `sample.sourceRevision.source == .default()` tells them apart.
    ///
    /// The identity is the connection's (healthd binds it when the app is launched), so the first
    /// call asks healthd, blocking the calling thread for one round-trip like
    /// `authorizationStatus(for:)` (`BrokerConnection.callBlocking`); later calls answer from memory. HealthKit's
    /// method cannot fail: when healthd cannot be asked, it answers the process name with an empty
    /// bundle identifier (the source an unsaved object reports) and asks again next time.
    public static func `default`() -> HKSource {
        if let known = cached.withLock({ $0 }) { return known }
        let list = try? BrokerConnection.shared.callBlocking(.currentSource, CurrentSourceRequest(), returning: SourceList.self)
        guard let source = list?.sources.first.map({ HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }) else {
            return HKSource(name: ProcessInfo.processInfo.processName, bundleIdentifier: "")
        }
        cached.withLock { $0 = source }
        return source
    }

    private static let cached = Mutex<HKSource?>(nil)
}
