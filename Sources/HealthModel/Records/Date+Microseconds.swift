public import Foundation

/// The project's time unit on the wire and in the store: whole microseconds since 1970 UTC.
extension Date {
    public var microsecondsSince1970: Int64 {
        let micros = (timeIntervalSince1970 * 1_000_000).rounded()
        return micros >= Double(Int64.max) ? .max : micros <= Double(Int64.min) ? .min : Int64(micros)
    }

    public init(microsecondsSince1970 micros: Int64) {
        self.init(timeIntervalSince1970: Double(micros) / 1_000_000)
    }
}
