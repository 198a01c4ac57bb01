"""Contacts: the people the user knows at each company.

`csvfile` reads LinkedIn's Connections.csv and other contact sheets; `people` keeps
them in the store and answers "who do I know at this company" for every surface.
Nothing here touches the network: contacts never leave the machine.
"""
