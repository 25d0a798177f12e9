import Foundation
import HealthModel

/// One grant in the words of `healthctl grants`: "allowed", "allowed, last 30 days, until
/// 2024-05-01 16:30:00", "denied (expired 2024-05-01 16:30:00)". The broker reports an expired
/// grant as denied with its expiry kept, so no clock is read here.
struct GrantDescriber {
    let timeZone: TimeZone

    func text(_ grant: GrantDecision?) -> String {
        guard let grant else { return "not set" }
        let time = SampleFormatter(displayUnit: nil, timeZone: timeZone)
        switch grant.decision {
        case .notDetermined:
            return "not set"
        case .denied:
            guard let expiry = grant.limits.expiry else { return "denied" }
            return "denied (expired \(time.localTime(expiry)))"
        case .authorized:
            var parts = ["allowed"]
            if let window = grant.limits.dataWindow { parts.append("last \(GrantDuration.describing(window))") }
            if let expiry = grant.limits.expiry { parts.append("until \(time.localTime(expiry))") }
            return parts.joined(separator: ", ")
        }
    }
}
