import Foundation
import HealthModel

/// Refuses temporary-grant limits the manager sent that would mean nothing: a window on share
/// access, on a characteristic or on documents (read by the user's picks), limits on a denial, an
/// expiry already past. Refusing is better
/// than storing a grant that silently behaves otherwise than the user asked.
enum GrantLimitsCheck {
    static func check(_ decisions: [GrantDecision], now: Date) throws(HKError) {
        for grant in decisions {
            if let problem = grant.limits.problem(for: grant.access, decision: grant.decision) {
                throw HKError(.errorInvalidArgument, "\(grant.access) \(grant.typeIdentifier): \(problem)")
            }
            // A characteristic has no date of its own, only when the user last set it: a window
            // would show or hide it by that instant, and so reveal it.
            if grant.limits.dataWindow != nil, HKObjectType.type(forIdentifier: grant.typeIdentifier) is HKCharacteristicType {
                throw HKError(.errorInvalidArgument,
                              "\(grant.access) \(grant.typeIdentifier): a data window applies to samples; a characteristic has no date, grant it without a window")
            }
            // Documents are read one by one, as the user allows each (`PerObjectAuthorization.offeredTypes`):
            // the type's read grant only lets the app offer them. A window would be a second rule
            // the picks do not follow; refused, naming the way to hide the documents meant.
            if grant.limits.dataWindow != nil, PerObjectAuthorization.offeredTypes.contains(grant.typeIdentifier) {
                throw HKError(.errorInvalidArgument,
                              "\(grant.access) \(grant.typeIdentifier): documents are allowed one by one, so a data window cannot apply; "
                              + "grant it without a window, allow only the documents you want (`healthctl object-requests`) "
                              + "and withdraw others with `healthctl object-grants APP --revoke UUID,...`")
            }
            if grant.limits.isExpired(at: now) {
                throw HKError(.errorInvalidArgument, "\(grant.access) \(grant.typeIdentifier): the expiry is already past; give a duration from now")
            }
        }
    }
}
