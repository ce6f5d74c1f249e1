#include "engine/analysis/dmft.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/rng.hpp"

namespace {

// A square matrix over the (step, point) pairs, row-major.
struct Kernel {
  int size = 0;
  std::vector<double> a;
  explicit Kernel(int n) : size(n), a(size_t(n) * size_t(n), 0.0) {}
  double& at(int p, int q) { return a[size_t(p) * size_t(size) + size_t(q)]; }
  double at(int p, int q) const { return a[size_t(p) * size_t(size) + size_t(q)]; }
};

// Extends the lower Cholesky factor L of `cov` by rows [first, last), so that Gaussian fields can be drawn one
// step at a time, each conditioned on the earlier steps: field_p = Σ_{q≤p} L_pq ζ_q. Directions the covariance
// does not reach (a field fixed by its past) get a zero pivot instead of a failure.
void extend_cholesky(const Kernel& cov, Kernel& L, int first, int last) {
  for (int p = first; p < last; p++)
    for (int q = 0; q <= p; q++) {
      double s = cov.at(p, q);
      for (int k = 0; k < q; k++) s -= L.at(p, k) * L.at(q, k);
      if (q < p) L.at(p, q) = L.at(q, q) > 0 ? s / L.at(q, q) : 0;
      else L.at(p, p) = s > 1e-12 * std::max(1.0, cov.at(p, p)) ? std::sqrt(s) : 0;
    }
}

// The state of the solver: the Monte Carlo draws of both layers with their histories, and the kernels so far.
class Dmft {
 public:
  Dmft(const DmftNet& net, const DmftData& data, const DmftSettings& settings)
      : net_(net), data_(data), set_(settings), K_(data.points), T_(settings.steps), N_(K_ * (T_ + 1)),
        S_(settings.samples), SJ_(std::min(settings.response_samples, settings.samples)), kx_(K_), phi1_(N_),
        g2_(N_), A_(N_), B_(N_), C_(N_), D_(N_), chol_u_(N_), chol_r_(N_) {
    for (auto* v : {&phi1h_, &zeta_r_, &g2h_, &zeta_u_}) v->assign(size_t(S_) * size_t(N_), 0.0f);
    for (auto* v : {&h1_, &z1_, &h2_}) v->assign(size_t(SJ_) * size_t(N_), 0.0);
    for (auto* v : {&h10_, &h1_now_, &phi2_now_, &c_sum_}) v->assign(size_t(S_) * size_t(K_), 0.0);
    v_.assign(size_t(S_) * size_t(T_ + 1), 0.0);
    phi2_.assign(size_t(T_ + 1) * size_t(K_) * size_t(K_), 0.0);
    delta_.assign(size_t(N_), 0.0);
    f_.assign(size_t(N_), 0.0);
    draw_initial_fields();
  }

  DmftSolution solve() {
    for (int t = 0; t <= T_; t++) {
      layer1_forward(t);
      kernel_step(phi1_, phi1h_, t);
      response_A(t);
      coupling_C(t);
      layer2_forward(t);
      equal_time_phi2(t);
      kernel_step(g2_, g2h_, t);
      response_B(t);
      coupling_D(t);
      layer1_backward(t);
    }
    DmftSolution out;
    out.points = K_;
    out.steps = T_;
    out.f = f_;
    out.phi1 = phi1_.a;
    out.phi2 = phi2_;
    out.g2 = g2_.a;
    return out;
  }

 private:
  template <class Real>
  Real at(const std::vector<Real>& history, int sample, int p) const {
    return history[size_t(sample) * size_t(N_) + size_t(p)];
  }
  template <class Real>
  Real& at(std::vector<Real>& history, int sample, int p) {
    return history[size_t(sample) * size_t(N_) + size_t(p)];
  }
  double& now(std::vector<double>& per_point, int sample, int a) { return per_point[size_t(sample * K_ + a)]; }
  bool keeps_history(int sample) const { return sample < SJ_; }
  double phi(double h) const {
    double x;
    activation_forward(net_.act, &x, &h, 1, net_.act_param);
    return x;
  }
  // φ′ and φ″ at h.
  void derivatives(double h, double* d1, double* d2) const {
    activation_derivatives(net_.act, d1, d2, &h, 1, net_.act_param);
  }
  double v(int sample, int t) const { return v_[size_t(sample) * size_t(T_ + 1) + size_t(t)]; }

  // h¹₀ ~ N(0, σ_U² Kx) through the Cholesky factor of Kx; v₀ ~ N(0, σ_v²); the standard normals ζ behind u and r.
  // Draws come in antithetic pairs, the twin with v₀ and r's normals negated (both laws are symmetric): the odd
  // parts of the integrands cancel within a pair, e.g. f₀ = ⟨v₀ φ(u)⟩ is exactly 0, as at n = ∞, and the Monte
  // Carlo error of f falls at equal cost.
  void draw_initial_fields() {
    Kernel kx(K_), chol(K_);
    for (int a = 0; a < K_; a++)
      for (int b = 0; b < K_; b++) {
        double dot = 0;
        for (int c = 0; c < data_.d; c++) dot += data_.x[a * data_.d + c] * data_.x[b * data_.d + c];
        kx.at(a, b) = kx_.at(a, b) = dot;
      }
    extend_cholesky(kx, chol, 0, K_);
    Rng rng = Rng::stream(set_.seed, 0xD3F7);
    std::vector<double> zeta(static_cast<size_t>(K_));
    for (int j = 0; j < S_; j++) {
      if (j % 2 == 1) {  // the antithetic twin of draw j − 1
        for (int p = 0; p < K_; p++) {
          now(h10_, j, p) = now(h10_, j - 1, p);
          at(phi1h_, j, p) = at(phi1h_, j - 1, p);
        }
        v_[size_t(j) * size_t(T_ + 1)] = -v_[size_t(j - 1) * size_t(T_ + 1)];
        for (int p = 0; p < N_; p++) at(zeta_u_, j, p) = at(zeta_u_, j - 1, p);
        for (int p = 0; p < N_; p++) at(zeta_r_, j, p) = -at(zeta_r_, j - 1, p);
        continue;
      }
      for (double& z : zeta) z = rng.normal();
      for (int a = 0; a < K_; a++) {
        double h = 0;
        for (int b = 0; b <= a; b++) h += chol.at(a, b) * zeta[size_t(b)];
        now(h10_, j, a) = net_.u_std * h;
        at(phi1h_, j, a) = float(phi(net_.u_std * h));
      }
      v_[size_t(j) * size_t(T_ + 1)] = net_.v_std * rng.normal();
      for (int p = 0; p < N_; p++) at(zeta_u_, j, p) = float(rng.normal());
      for (int p = 0; p < N_; p++) at(zeta_r_, j, p) = float(rng.normal());
    }
  }

  // h¹(t) = h¹₀ + η Kx Σ_{s<t} c(s), where c_k(s) = Δ_k(s) g¹(k,s) is summed in c_sum_ by layer1_backward.
  void layer1_forward(int t) {
    for (int j = 0; j < S_; j++)
      for (int a = 0; a < K_; a++) {
        double h = now(h10_, j, a);
        for (int k = 0; k < K_; k++) h += set_.lr * kx_.at(a, k) * now(c_sum_, j, k);
        now(h1_now_, j, a) = h;
        if (keeps_history(j)) at(h1_, j, t * K_ + a) = h;
        if (t > 0) at(phi1h_, j, t * K_ + a) = float(phi(h));  // step 0's was drawn with h¹₀
      }
  }

  // Row block t of a kernel: K(p, q) = ⟨value(p) value(q)⟩ over the draws, for q at steps ≤ t.
  void kernel_step(Kernel& kernel, const std::vector<float>& values, int t) {
    for (int i = 0; i < S_; i++) {
      const float* row = &values[size_t(i) * size_t(N_)];
      for (int a = 0; a < K_; a++) {
        double* out = &kernel.at(t * K_ + a, 0);
        const double now = row[t * K_ + a] / S_;
        for (int q = 0; q < (t + 1) * K_; q++) out[q] += now * row[q];
      }
    }
    for (int a = 0; a < K_; a++)
      for (int q = 0; q < (t + 1) * K_; q++) kernel.at(q, t * K_ + a) = kernel.at(t * K_ + a, q);
  }

  // Φ²(t, t) = ⟨φ(h²(t)) φ(h²(t))ᵀ⟩.
  void equal_time_phi2(int t) {
    double* block = &phi2_[size_t(t) * size_t(K_) * size_t(K_)];
    for (int i = 0; i < S_; i++)
      for (int a = 0; a < K_; a++)
        for (int b = 0; b < K_; b++) block[a * K_ + b] += now(phi2_now_, i, a) * now(phi2_now_, i, b) / S_;
  }

  // The couplings of the two single sites: C (layer 2 reads g², strictly earlier steps) and D (layer 1 reads φ¹,
  // the same or earlier steps), as written in the header.
  void coupling_C(int t) {
    for (int p = t * K_; p < (t + 1) * K_; p++)
      for (int q = 0; q < t * K_; q++)
        C_.at(p, q) = net_.a_std * net_.a_std * A_.at(p, q) + set_.lr * delta_[size_t(q)] * phi1_.at(p, q);
  }
  void coupling_D(int t) {
    for (int p = t * K_; p < (t + 1) * K_; p++)
      for (int q = 0; q < (t + 1) * K_; q++) {
        const bool earlier = q < t * K_;
        D_.at(p, q) = net_.a_std * net_.a_std * B_.at(p, q) + (earlier ? set_.lr * delta_[size_t(q)] * g2_.at(p, q) : 0.0);
      }
  }

  // Layer 2 at step t: u(t) drawn given u at earlier steps, h² = u + Σ C g², v(t), g², and f(t) = ⟨v φ(h²)⟩.
  void layer2_forward(int t) {
    Kernel cov(N_);  // σ_A² Φ¹; extend_cholesky reads only rows of block t and the factor of earlier blocks
    for (int p = t * K_; p < (t + 1) * K_; p++)
      for (int q = 0; q <= p; q++) cov.at(p, q) = net_.a_std * net_.a_std * phi1_.at(p, q);
    extend_cholesky(cov, chol_u_, t * K_, (t + 1) * K_);
    for (int i = 0; i < S_; i++) {
      double& vt = v_[size_t(i) * size_t(T_ + 1) + size_t(t)];
      if (t > 0) {
        vt = v(i, t - 1);
        for (int k = 0; k < K_; k++) vt += set_.lr * delta_[size_t((t - 1) * K_ + k)] * now(phi2_now_, i, k);
      }
      for (int p = t * K_; p < (t + 1) * K_; p++) {
        double h = 0;
        for (int q = 0; q <= p; q++) h += chol_u_.at(p, q) * at(zeta_u_, i, q);
        for (int q = 0; q < t * K_; q++) h += C_.at(p, q) * at(g2h_, i, q);
        if (keeps_history(i)) at(h2_, i, p) = h;
        now(phi2_now_, i, p - t * K_) = phi(h);
        double d1, d2;
        derivatives(h, &d1, &d2);
        at(g2h_, i, p) = float(vt * d1);
      }
    }
    for (int a = 0; a < K_; a++) {
      const int p = t * K_ + a;
      double f = 0;
      for (int i = 0; i < S_; i++) f += v(i, t) * now(phi2_now_, i, a);
      f_[size_t(p)] = f / S_;
      delta_[size_t(p)] = (data_.y[a] - f_[size_t(p)]) / K_;
    }
  }

  // Layer 1's backward field at step t: r(t) drawn given r at earlier steps, z¹ = r + Σ D φ¹, and the running
  // sum of c(t) = Δ(t) ∘ g¹(t) that moves h¹ at the next steps.
  void layer1_backward(int t) {
    Kernel cov(N_);
    for (int p = t * K_; p < (t + 1) * K_; p++)
      for (int q = 0; q <= p; q++) cov.at(p, q) = net_.a_std * net_.a_std * g2_.at(p, q);
    extend_cholesky(cov, chol_r_, t * K_, (t + 1) * K_);
    for (int j = 0; j < S_; j++)
      for (int p = t * K_; p < (t + 1) * K_; p++) {
        double z = 0;
        for (int q = 0; q <= p; q++) z += chol_r_.at(p, q) * at(zeta_r_, j, q);
        for (int q = 0; q < (t + 1) * K_; q++) z += D_.at(p, q) * at(phi1h_, j, q);
        if (keeps_history(j)) at(z1_, j, p) = z;
        double d1, d2;
        derivatives(now(h1_now_, j, p - t * K_), &d1, &d2);
        c_sum_[size_t(j) * size_t(K_) + size_t(p - t * K_)] += delta_[size_t(p)] * d1 * z;
      }
  }

  // A(p, q) = ⟨∂φ(h¹_p)/∂r_q⟩ for p in block t: each response draw's trajectory is differentiated backwards
  // from step t, the K outputs of block t at once (adjoints ·̄, column a = output point a):
  //   c̄(s) = η Kx Σ_{s'>s} h̄(s'),  z̄(s) = Δ(s) φ′(h¹(s)) c̄(s) (= ∂/∂r(s)),  φ̄(σ) += D(s,σ)ᵀ z̄(s) for σ ≤ s,
  //   h̄(s) = φ′(h¹(s)) φ̄(s) + Δ(s) φ″(h¹(s)) z¹(s) c̄(s).
  void response_A(int t) {
    if (t == 0) return;
    const int n = (t + 1) * K_;
    std::vector<double> phibar(size_t(n) * size_t(K_)), hsum(size_t(K_) * size_t(K_)), cbar(hsum.size()),
        zbar(hsum.size());
    for (int j = 0; j < SJ_; j++) {
      std::fill(phibar.begin(), phibar.end(), 0.0);
      std::fill(hsum.begin(), hsum.end(), 0.0);
      for (int a = 0; a < K_; a++) phibar[size_t(t * K_ + a) * size_t(K_) + size_t(a)] = 1;
      for (int s = t; s >= 0; s--) {
        for (int k = 0; k < K_; k++)
          for (int a = 0; a < K_; a++) {
            double c = 0;
            for (int b = 0; b < K_; b++) c += set_.lr * kx_.at(k, b) * hsum[size_t(b * K_ + a)];
            cbar[size_t(k * K_ + a)] = c;
            double d1, d2;
            derivatives(at(h1_, j, s * K_ + k), &d1, &d2);
            zbar[size_t(k * K_ + a)] = delta_[size_t(s * K_ + k)] * d1 * c;
            A_.at(t * K_ + a, s * K_ + k) += zbar[size_t(k * K_ + a)] / SJ_;
          }
        for (int k = 0; k < K_; k++)
          for (int q = 0; q < (s + 1) * K_; q++) {
            const double coupling = D_.at(s * K_ + k, q);
            if (coupling == 0) continue;
            for (int a = 0; a < K_; a++) phibar[size_t(q * K_ + a)] += coupling * zbar[size_t(k * K_ + a)];
          }
        for (int k = 0; k < K_; k++) {
          const int p = s * K_ + k;
          double d1, d2;
          derivatives(at(h1_, j, p), &d1, &d2);
          for (int a = 0; a < K_; a++)
            hsum[size_t(k * K_ + a)] += d1 * phibar[size_t(p * K_ + a)] +
                                        delta_[size_t(p)] * d2 * at(z1_, j, p) * cbar[size_t(k * K_ + a)];
        }
      }
    }
  }

  // B(p, q) = ⟨∂g²_p/∂u_q⟩ for p in block t, the same way (V̄ = Σ_{s'>s} v̄(s')):
  //   h̄(s) = ḡ(s) v(s) φ″(h²(s)) + η Δ(s) V̄ φ′(h²(s)) (= ∂/∂u(s)),  v̄(s) = Σ_k ḡ(k,s) φ′(h²(k,s)),
  //   ḡ(σ) += C(s,σ)ᵀ h̄(s) for σ < s.
  void response_B(int t) {
    const int n = (t + 1) * K_;
    std::vector<double> gbar(size_t(n) * size_t(K_)), vsum(static_cast<size_t>(K_)), hbar(size_t(K_) * size_t(K_));
    for (int i = 0; i < SJ_; i++) {
      std::fill(gbar.begin(), gbar.end(), 0.0);
      std::fill(vsum.begin(), vsum.end(), 0.0);
      for (int a = 0; a < K_; a++) gbar[size_t(t * K_ + a) * size_t(K_) + size_t(a)] = 1;
      for (int s = t; s >= 0; s--) {
        const double vs = v(i, s);
        std::vector<double> vbar(static_cast<size_t>(K_), 0.0);
        for (int k = 0; k < K_; k++) {
          const int p = s * K_ + k;
          double d1, d2;
          derivatives(at(h2_, i, p), &d1, &d2);
          for (int a = 0; a < K_; a++) {
            const double g = gbar[size_t(p * K_ + a)];
            const double h = g * vs * d2 + set_.lr * delta_[size_t(p)] * vsum[size_t(a)] * d1;
            hbar[size_t(k * K_ + a)] = h;
            B_.at(t * K_ + a, p) += h / SJ_;
            vbar[size_t(a)] += g * d1;
          }
        }
        for (int k = 0; k < K_; k++)
          for (int q = 0; q < s * K_; q++) {
            const double coupling = C_.at(s * K_ + k, q);
            for (int a = 0; a < K_; a++) gbar[size_t(q * K_ + a)] += coupling * hbar[size_t(k * K_ + a)];
          }
        for (int a = 0; a < K_; a++) vsum[size_t(a)] += vbar[size_t(a)];
      }
    }
  }

  DmftNet net_;
  DmftData data_;
  DmftSettings set_;
  int K_, T_, N_, S_, SJ_;
  Kernel kx_, phi1_, g2_, A_, B_, C_, D_, chol_u_, chol_r_;
  std::vector<double> phi2_;  // equal-time blocks of Φ², (T + 1) × K × K
  // samples × N histories, in float32 (their rounding, 1e-7, is far below the Monte Carlo error): φ(h¹) and the
  // normals behind r; g² and the normals behind u.
  std::vector<float> phi1h_, zeta_r_, g2h_, zeta_u_;
  // response_samples × N histories that the response functions differentiate: h¹, z¹, h².
  std::vector<double> h1_, z1_, h2_;
  // samples × K: h¹₀, h¹ and φ(h²) at the current step, and Σ_{s<t} Δ(s) ∘ g¹(s).
  std::vector<double> h10_, h1_now_, phi2_now_, c_sum_;
  std::vector<double> v_;                               // samples × (T + 1)
  std::vector<double> delta_, f_;                       // N
};

}  // namespace

DmftSolution solve_dmft(const DmftNet& net, const DmftData& data, const DmftSettings& settings) {
  return Dmft(net, data, settings).solve();
}

bool dmft_form(const Mlp& m, DmftNet* net, std::string* why) {
  auto fail = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  if (m.layers() != 3) return fail("needs exactly two hidden layers");
  const double n = m.dims()[1];
  if (m.dims()[2] != m.dims()[1]) return fail("needs both hidden layers of one width");
  if (m.dims()[3] != 1) return fail("needs one output");
  if (m.activation() == Activation::relu) return fail("needs an activation with a continuous derivative (not relu)");
  // SGD on w moves W = m w with learning rate η · lr_mult · m² (ΔW = m Δw and ∂L/∂w = m ∂L/∂W); U = W1, A = √n W2
  // and v = n W3 move with ηn when those are ηn, η and η/n.
  const double want[3] = {n, 1, 1 / n};
  for (int l = 0; l < 3; l++) {
    const TensorScaling& s = m.scaling()[size_t(l)];
    const double effective = s.lr_multiplier * s.multiplier * s.multiplier;
    if (std::fabs(effective - want[l]) > 1e-12 * want[l])
      return fail("effective LR on W" + std::to_string(l + 1) + " is not the muP one (eta*n, eta, eta/n)");
  }
  if (net) {
    net->act = m.activation();
    net->act_param = m.activation_param();
    net->u_std = m.scaling()[0].multiplier * m.scaling()[0].init_std;
    net->a_std = std::sqrt(n) * m.scaling()[1].multiplier * m.scaling()[1].init_std;
    net->v_std = n * m.scaling()[2].multiplier * m.scaling()[2].init_std;
  }
  return true;
}
