import HealthModel

/// libFuzzer target: the unit grammar (`HKUnit.parse`) and what is done with a parsed unit —
/// its canonical spelling must parse to the same unit, and converting a value to itself or to
/// the canonical unit of a compatible quantity type must not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUnit(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: min(size, 512)), as: UTF8.self)
    guard let unit = try? HKUnit.parse(text) else { return 0 }
    guard let again = try? HKUnit.parse(unit.unitString) else {
        fatalError("the canonical spelling \(unit.unitString) of a parsed unit does not parse")
    }
    if !again.isCompatible(with: unit) { fatalError("\(unit.unitString) reparses as an incompatible unit") }
    _ = try? HKQuantity(unit: unit, doubleValue: 1.5).value(in: again)
    _ = try? HKQuantity(unit: unit, doubleValue: -1e308).value(in: HKUnit.parse("count/min"))
    return 0
}
