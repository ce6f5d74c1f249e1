// Pointwise nonlinearities with their derivatives.
#pragma once

enum class Activation { relu, tanh, gelu, linear, sigmoid };

const char* activation_name(Activation a);

// x[i] = phi(h[i])
void activation_forward(Activation a, double* x, const double* h, long n);
// dh[i] = dx[i] * phi'(h[i]); x = phi(h) is passed because tanh' and sigmoid' are cheapest from it.
void activation_backward(Activation a, double* dh, const double* dx, const double* h, const double* x, long n);
