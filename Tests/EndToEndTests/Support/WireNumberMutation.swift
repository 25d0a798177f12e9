import COpenHealthProto

/// A serialized request taken apart by protobuf-c, so that one numeric field at a time can be
/// replaced with everything else left as it was (valid), then packed again. Driven only by the
/// descriptors: no message type is named here.
enum WireNumberMutation {
    /// Where a numeric field stands in one message: the field indices (into each descriptor's
    /// `fields`) and element positions (0 outside repeated fields) from the top message down.
    struct Site: Hashable, Sendable, CustomStringConvertible {
        let field: WireNumberFields.Field
        let steps: [Step]

        var description: String { "\(field)@\(steps.map { "\($0.field)[\($0.element)]" }.joined(separator: "."))" }
    }

    struct Step: Hashable, Sendable {
        let field: Int
        let element: Int
    }

    /// Every numeric field present in `bytes`, plus optional scalars left unset (setting one is
    /// still a well-formed request). A oneof member is present only when it is the case chosen.
    static func sites(in bytes: [UInt8], of descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> [Site] {
        withUnpacked(bytes, descriptor) { message in
            var found: [Site] = []
            walk(UnsafeMutableRawPointer(message), descriptor, [], &found)
            return found
        } ?? []
    }

    /// `bytes` with the field at `site` set to `value`; nil when the bytes do not unpack.
    static func replacing(_ site: Site, with value: WireNumber, in bytes: [UInt8],
                          of descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> [UInt8]? {
        withUnpacked(bytes, descriptor) { message -> [UInt8]? in
            var base = UnsafeMutableRawPointer(message)
            var current = descriptor
            for (depth, step) in site.steps.enumerated() {
                let field = current.pointee.fields[step.field]
                let isLast = depth == site.steps.count - 1
                guard !isLast else {
                    write(value, into: base, field)
                    break
                }
                guard let nested = field.descriptor?.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                      let child = messages(in: base, field)[safe: step.element] else { return nil }
                base = child
                current = nested
            }
            let packed = UnsafePointer(message)
            let size = protobuf_c_message_get_packed_size(packed)
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = protobuf_c_message_pack(packed, buffer.baseAddress)
            }
        } ?? nil
    }

    /// Every floating-point value present in `bytes` (an answer), with its field.
    static func floatingValues(in bytes: [UInt8], of descriptor: UnsafePointer<ProtobufCMessageDescriptor>)
        -> [(WireNumberFields.Field, Double)] {
        withUnpacked(bytes, descriptor) { message in
            var found: [Site] = []
            walk(UnsafeMutableRawPointer(message), descriptor, [], &found, presentOnly: true)
            return found.compactMap { site in read(site, in: UnsafeMutableRawPointer(message), descriptor).map { (site.field, $0) } }
        } ?? []
    }

    // MARK: protobuf-c's layout

    private static func withUnpacked<R>(_ bytes: [UInt8], _ descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
                                        _ body: (UnsafeMutablePointer<ProtobufCMessage>) -> R) -> R? {
        let message = bytes.withUnsafeBufferPointer { protobuf_c_message_unpack(descriptor, nil, $0.count, $0.baseAddress) }
        guard let message else { return nil }
        defer { protobuf_c_message_free_unpacked(message, nil) }
        return body(message)
    }

    private static func walk(_ base: UnsafeMutableRawPointer, _ descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
                             _ steps: [Step], _ found: inout [Site], presentOnly: Bool = false) {
        let message = String(cString: descriptor.pointee.short_name)
        for index in 0 ..< Int(descriptor.pointee.n_fields) {
            let field = descriptor.pointee.fields[index]
            if let kind = WireNumberKind(field.type) {
                let described = WireNumberFields.Field(message: message, name: String(cString: field.name), kind: kind)
                if field.label == PROTOBUF_C_LABEL_REPEATED {
                    let count = base.load(fromByteOffset: Int(field.quantifier_offset), as: Int.self)
                    let elements = presentOnly ? 0 ..< count : 0 ..< min(count, 1)
                    for element in elements {
                        found.append(Site(field: described, steps: steps + [Step(field: index, element: element)]))
                    }
                } else if isPresent(base, field) || (!presentOnly && !isOneofMember(field)) {
                    found.append(Site(field: described, steps: steps + [Step(field: index, element: 0)]))
                }
            } else if field.type == PROTOBUF_C_TYPE_MESSAGE, let nested = field.descriptor {
                for (element, child) in messages(in: base, field).enumerated() {
                    walk(child, nested.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                         steps + [Step(field: index, element: element)], &found, presentOnly: presentOnly)
                }
            }
        }
    }

    private static func isOneofMember(_ field: ProtobufCFieldDescriptor) -> Bool {
        field.flags & UInt32(PROTOBUF_C_FIELD_FLAG_ONEOF.rawValue) != 0
    }

    /// Whether a singular scalar is set: always for proto3 plain fields; by its `has_` flag or
    /// oneof case otherwise.
    private static func isPresent(_ base: UnsafeMutableRawPointer, _ field: ProtobufCFieldDescriptor) -> Bool {
        if isOneofMember(field) { return base.load(fromByteOffset: Int(field.quantifier_offset), as: UInt32.self) == field.id }
        if field.label == PROTOBUF_C_LABEL_OPTIONAL { return base.load(fromByteOffset: Int(field.quantifier_offset), as: Int32.self) != 0 }
        return true
    }

    /// The nested messages a message field holds (none, one, or a repeated field's elements).
    private static func messages(in base: UnsafeMutableRawPointer, _ field: ProtobufCFieldDescriptor) -> [UnsafeMutableRawPointer] {
        if field.label == PROTOBUF_C_LABEL_REPEATED {
            let count = base.load(fromByteOffset: Int(field.quantifier_offset), as: Int.self)
            guard count > 0, let array = base.load(fromByteOffset: Int(field.offset), as: UnsafeMutableRawPointer?.self) else { return [] }
            return (0 ..< count).compactMap { array.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutableRawPointer>.stride,
                                                          as: UnsafeMutableRawPointer?.self) }
        }
        if isOneofMember(field), base.load(fromByteOffset: Int(field.quantifier_offset), as: UInt32.self) != field.id { return [] }
        return base.load(fromByteOffset: Int(field.offset), as: UnsafeMutableRawPointer?.self).map { [$0] } ?? []
    }

    /// Where a scalar's value lives: the element of a repeated field, or the field itself.
    private static func valueAddress(_ base: UnsafeMutableRawPointer, _ field: ProtobufCFieldDescriptor, element: Int,
                                     kind: WireNumberKind) -> UnsafeMutableRawPointer? {
        guard field.label == PROTOBUF_C_LABEL_REPEATED else { return base + Int(field.offset) }
        let array = base.load(fromByteOffset: Int(field.offset), as: UnsafeMutableRawPointer?.self)
        return array.map { $0 + element * kind.size }
    }

    private static func write(_ value: WireNumber, into base: UnsafeMutableRawPointer, _ field: ProtobufCFieldDescriptor) {
        guard let kind = WireNumberKind(field.type) else { return }
        if field.label == PROTOBUF_C_LABEL_OPTIONAL, !isOneofMember(field) {
            base.storeBytes(of: 1, toByteOffset: Int(field.quantifier_offset), as: Int32.self)
        }
        let element = 0
        guard let address = valueAddress(base, field, element: element, kind: kind) else { return }
        switch (kind, value) {
        case let (.double, .floating(number)): address.storeBytes(of: number, as: Double.self)
        case let (.float, .floating(number)): address.storeBytes(of: Float(number), as: Float.self)
        case let (.int32, .integer(number)), let (.enumeration, .integer(number)):
            address.storeBytes(of: Int32(truncatingIfNeeded: number), as: Int32.self)
        case let (.uint32, .unsigned(number)): address.storeBytes(of: UInt32(truncatingIfNeeded: number), as: UInt32.self)
        case let (.int64, .integer(number)): address.storeBytes(of: number, as: Int64.self)
        case let (.uint64, .unsigned(number)): address.storeBytes(of: number, as: UInt64.self)
        default: break  // a value of another kind than the field's: the caller's mistake, left unsent as is
        }
    }

    private static func read(_ site: Site, in message: UnsafeMutableRawPointer,
                             _ descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> Double? {
        var base = message
        var current = descriptor
        for (depth, step) in site.steps.enumerated() {
            let field = current.pointee.fields[step.field]
            if depth == site.steps.count - 1 {
                guard let address = valueAddress(base, field, element: step.element, kind: site.field.kind) else { return nil }
                switch site.field.kind {
                case .double: return address.load(as: Double.self)
                case .float: return Double(address.load(as: Float.self))
                default: return nil
                }
            }
            guard let nested = field.descriptor?.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                  let child = messages(in: base, field)[safe: step.element] else { return nil }
            base = child
            current = nested
        }
        return nil
    }
}

extension WireNumberKind {
    /// Bytes per element in protobuf-c's arrays (enums are C ints).
    var size: Int {
        switch self {
        case .double, .int64, .uint64: 8
        case .float, .int32, .uint32, .enumeration: 4
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
