# Builds cpp_bench (Benchmarks/Harness/cpp_bench.cc) for Scripts/bench and Scripts/profile:
#
#   make -s -f Benchmarks/Harness/cpp_bench.mk OUT=DIR      # -> DIR/cpp_bench
#
# Against the system libprotobuf (pkg-config protobuf; Debian's libprotobuf-dev 3.21) and the generated
# code the C++ conformance testee commits (Tests/Conformance/testees/cpp/generated, from
# Tests/Conformance/testees/cpp/generate). The generated code is compiled once into its own object (it
# takes the longest) and again only when it changes; -O2 as pbc_bench, -g only adds symbols for profiles.

here := $(dir $(lastword $(MAKEFILE_LIST)))
root := $(abspath $(here)../..)
generated := $(root)/Tests/Conformance/testees/cpp/generated
OUT ?= $(root)/Benchmarks/.build/bench
CXX = g++
cxxflags := -std=c++17 -O2 -g -I$(generated) $(shell pkg-config --cflags protobuf)
libs := $(shell pkg-config --libs protobuf)

.DELETE_ON_ERROR:

$(OUT)/cpp_bench: $(OUT)/cpp_bench.o $(OUT)/message.pb.o
	$(CXX) -O2 $^ $(libs) -o $@

$(OUT)/cpp_bench.o: $(here)cpp_bench.cc $(generated)/imwire/v1/message.pb.h $(lastword $(MAKEFILE_LIST))
	@mkdir -p $(OUT)
	$(CXX) $(cxxflags) -Wall -c $< -o $@

$(OUT)/message.pb.o: $(generated)/imwire/v1/message.pb.cc $(generated)/imwire/v1/message.pb.h
	@mkdir -p $(OUT)
	$(CXX) $(cxxflags) -c $< -o $@
