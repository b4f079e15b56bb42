Infeasible - objective value 0.00000000
