// Pointwise nonlinearities with their derivatives.
#pragma once
#include "engine/base/enum_names.hpp"

// softplus, x_tanh (x·tanh x), x2_tanh (x²·tanh x), sin (sin(a x)) and ricker (the book's eq. 4.3, width a) serve the
// frequency-principle and condensation experiments; `param` below is their a (ignored by the others).
enum class Activation { relu, tanh, gelu, linear, sigmoid, softplus, x_tanh, x2_tanh, sin, ricker };

inline constexpr EnumName<Activation> kActivationNames[] = {
    {Activation::relu, "relu"},
    {Activation::tanh, "tanh"},
    {Activation::gelu, "gelu"},
    {Activation::linear, "linear"},
    {Activation::sigmoid, "sigmoid"},
    {Activation::softplus, "softplus"},
    {Activation::x_tanh, "x_tanh"},
    {Activation::x2_tanh, "x2_tanh"},
    {Activation::sin, "sin"},
    {Activation::ricker, "ricker"},
};
inline const char* activation_name(Activation a) { return enum_name(kActivationNames, a); }

// x[i] = phi(h[i])
void activation_forward(Activation a, double* x, const double* h, long n);
// dh[i] = dx[i] * phi'(h[i]); x = phi(h) is passed because tanh' and sigmoid' are cheapest from it.
void activation_backward(Activation a, double* dh, const double* dx, const double* h, const double* x, long n);
// The same with the activation's parameter a (sin(a x), Ricker width a); the overloads above use a = 1.
void activation_forward(Activation a, double* x, const double* h, long n, double param);
void activation_backward(Activation a, double* dh, const double* dx, const double* h, const double* x, long n,
                         double param);
// d1[i] = phi'(h[i]) and d2[i] = phi''(h[i]): the gradient-augmented loss (engine/model/gradient_loss.hpp) carries
// ∂h/∂x forward through phi' and needs phi'' on its way back. GELU is left out (no spec experiment uses it there).
bool activation_has_second_derivative(Activation a);
void activation_derivatives(Activation a, double* d1, double* d2, const double* h, long n, double param);
