#pragma once
// Umbrella header of tseig.
#include "tseig/accuracy.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/error.hpp"
#include "tseig/generators.hpp"
#include "tseig/gpu.hpp"
#include "tseig/grid.hpp"
#include "tseig/index_map.hpp"
#include "tseig/matrix.hpp"
#include "tseig/matrix_market.hpp"
#include "tseig/types.hpp"
#include "tseig/version.hpp"
