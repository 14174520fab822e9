// A program that imports this module sees the modules its public API is made of, without importing them too.
@_exported import IMWireCore
@_exported import IMWireBinary
@_exported import IMWireView
@_exported import IMWireTUIKit
