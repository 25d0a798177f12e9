/// A run of a series sample's points as the store streams them: a heartbeat series' beats or an
/// electrocardiogram's voltages (volts), or a quantity sample's quantities (canonical unit).
public enum SeriesPoints: Hashable, Sendable {
    case heartbeats([Heartbeat])
    case voltages([Double])
    case quantities([QuantitySeriesDatum])

    public var count: Int {
        switch self {
        case let .heartbeats(beats): beats.count
        case let .voltages(voltages): voltages.count
        case let .quantities(data): data.count
        }
    }

    /// Points `range` of these.
    public func slice(_ range: Range<Int>) -> SeriesPoints {
        switch self {
        case let .heartbeats(beats): .heartbeats(Array(beats[range]))
        case let .voltages(voltages): .voltages(Array(voltages[range]))
        case let .quantities(data): .quantities(Array(data[range]))
        }
    }
}
