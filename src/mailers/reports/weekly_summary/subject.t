Weekly compliance summary for {{ organization }}
