import HealthWire

extension StatusValue {
    /// The enum case a status response names. An unknown raw value means the broker is newer
    /// than this SDK; it is reported rather than guessed, since a wrong guess about permissions
    /// would mislead the app.
    func decoded<Status: RawRepresentable<Int>>(as _: Status.Type) throws(HKError) -> Status {
        guard let status = Status(rawValue: rawValue) else {
            throw HKError(.unknownError, "healthd sent \(rawValue), which is not a \(Status.self) this SDK knows")
        }
        return status
    }
}
