// pkc_dialect.hpp - device-side support for the PyKokkos dialect beyond plain
// range kernels: team/vector loops, scratch, atomics, random numbers,
// subviews. Included at the end of pkc_kokkos.hpp; Kokkos-version
// differences still belong in pkc_kokkos.hpp's compatibility section.
#ifndef PKC_DIALECT_HPP
#define PKC_DIALECT_HPP

namespace pkc {}  // namespace pkc

#endif  // PKC_DIALECT_HPP
