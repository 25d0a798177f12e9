import HealthIPC
import HealthModel
import HealthWire

/// Which failed app calls the access log records as refused, and how. A refusal is the broker
/// saying no to what the app asked — no permission, an invalid request, a method not served to
/// apps — as opposed to a failure of the broker's own (cancelled, internal error), which is
/// not the app's doing. The entry names the method and the HealthKit code only: status messages
/// can quote what the app sent, and what it sent may be a health value.
struct CallRefusal: Sendable {
    let method: String
    let code: HKError.Code
    /// Which of the broker's rules refused, when the code alone does not say (a storage bound).
    var reason: String?

    init(method: String, code: HKError.Code, reason: String? = nil) {
        self.method = method
        self.code = code
        self.reason = reason
    }

    /// nil when `status` is not a refusal.
    init?(method: String, status: RPCStatus) {
        let refusalCodes: Set<HKError.Code> = [.errorAuthorizationDenied, .errorAuthorizationNotDetermined, .errorInvalidArgument]
        if let code = status.healthKitCode, refusalCodes.contains(code) {
            self.code = code
        } else if status.code == .unimplemented || status.code == .invalidArgument || status.code == .permissionDenied {
            self.code = status.code == .invalidArgument ? .errorInvalidArgument : .errorAuthorizationDenied
        } else {
            return nil
        }
        self.method = method
    }

    /// "/openhealth.v1.HealthStore/Save: errorAuthorizationDenied". The method name may be one
    /// the app made up: it is cut short and kept to printable ASCII, so it cannot disturb the
    /// terminal `healthctl log` prints to.
    var detail: String {
        let printable = method.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(96)
        let said = "\(String(String.UnicodeScalarView(printable))): \(code)"
        return reason.map { "\(said) (\($0))" } ?? said
    }
}
