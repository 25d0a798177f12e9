/// A run of a series sample's points as the store streams them: a heartbeat series' beats or an
/// electrocardiogram's voltages (volts).
public enum SeriesPoints: Hashable, Sendable {
    case heartbeats([Heartbeat])
    case voltages([Double])

    public var count: Int {
        switch self {
        case let .heartbeats(beats): beats.count
        case let .voltages(voltages): voltages.count
        }
    }
}
