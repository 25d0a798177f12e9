import ArgumentParser
import Foundation
import HealthModel

/// `--for` and `--window`: what makes a grant temporary (GrantLimits). Only `grant` takes them;
/// a revocation has nothing to limit.
struct TemporaryGrantOptions: ParsableArguments {
    @Option(name: .customLong("for"),
            help: ArgumentHelp("Let the grant expire after this long; it then counts as denied. Format: \(GrantDuration.valueHelp).",
                               valueName: "duration"))
    var duration: GrantDuration?

    @Option(help: ArgumentHelp("Read only: let the app see only data from this far back, measured each time it asks (its own data it always sees). Format: \(GrantDuration.valueHelp).",
                               valueName: "duration"))
    var window: GrantDuration?

    func validate(access: AccessKind) throws {
        if window != nil, access != .read {
            throw ValidationError("--window applies to read access only: an app writes what it writes")
        }
    }

    /// The limits for a grant made at `now`.
    func limits(at now: Date) -> GrantLimits {
        GrantLimits(dataWindow: window?.timeInterval, expiry: duration.map { now.addingTimeInterval($0.timeInterval) })
    }
}
