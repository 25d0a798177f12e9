// Apple's HKAttachment header imports UniformTypeIdentifiers (contentType is a UTType), so Swift
// code that imports HealthKit sees UTType without importing it; the same here. Code that does
// `import UniformTypeIdentifiers` itself compiles too: the module is a product of this package.
@_exported public import UniformTypeIdentifiers
